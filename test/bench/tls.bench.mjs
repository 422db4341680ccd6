#!/usr/bin/env node
// Benchmark of client certificates and HTTP/2 (docs/networks.md), against curl in the same run:
// - mutual TLS through the shell verbs: 100 sequential `GET /x --cert --key` (bash, daemon) to a
//   server that requires a client certificate (test/fixtures/private-ca.mjs --mtls), against 100
//   `curl -s --cert --key` from the same shell. Target: at most 1.25x curl per call (issue 10's
//   target for the verbs). The engine checks the certificate files on each call (a stat of each;
//   parsed once per version) and keeps the TLS connection; curl loads them and shakes hands anew.
// - HTTP/2 in the engine: 200 sequential GETs with `send` (--http2 and without) to a node:http2
//   server (private-ca.mjs --http2), against one `curl --http2` run fetching the same 200 URLs on
//   one connection (curl's own reuse: the floor). Informational.
// Prints one Markdown section on stdout; progress on stderr. Run: node test/bench/run.mjs tls
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const N = Number(process.env.REST_BENCH_CALLS ?? 100);
const H2_N = 200;
const ROUNDS = 3;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} exited ${code}: ${err}`))));
  });
}

/** A private-ca.mjs server in its own process; resolves to { url, dir, stop }. */
async function server(flag) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-bench-'));
  const child = spawn(process.execPath, [path.join(root, 'test/fixtures/private-ca.mjs'), '--dir', dir, flag], { stdio: 'ignore' });
  for (let i = 0; i < 300 && !fs.existsSync(path.join(dir, 'port')); i++) await new Promise((r) => setTimeout(r, 100));
  const port = fs.readFileSync(path.join(dir, 'port'), 'utf8');
  return { url: `https://127.0.0.1:${port}`, dir, stop: () => child.kill() };
}

const mtls = await server('--mtls');
const h2 = await server('--http2');
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tls-bench-home-'));
const rt = fs.mkdtempSync('/tmp/rest-bench-rt.');
try {
  process.stderr.write('tls bench: mutual TLS, verbs vs curl\n');
  const opts = `--cacert "$D/ca.pem" --cert "$D/client.pem" --key "$D/client.key"`;
  const script = `
    source shell/rest; rest "$URL" >/dev/null
    GET /warm ${opts} >/dev/null || exit 1
    i=0; while [ ! -S "$REST_RUNTIME_DIR/engine.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
    GET /warm ${opts} >/dev/null || exit 1
    for round in ${Array.from({ length: ROUNDS }, (_, i) => i + 1).join(' ')}; do
      t0=$EPOCHREALTIME; i=0; while [ $i -lt ${N} ]; do curl -s ${opts} "$URL/x" >/dev/null || exit 1; i=$((i+1)); done; t1=$EPOCHREALTIME
      echo "curl $t0 $t1"
      t0=$EPOCHREALTIME; i=0; while [ $i -lt ${N} ]; do GET /x ${opts} >/dev/null || exit 1; i=$((i+1)); done; t1=$EPOCHREALTIME
      echo "rest $t0 $t1"
    done
    rest --stop`;
  const out = await run('bash', ['-c', script], { URL: mtls.url, D: mtls.dir, HOME: home, REST_RUNTIME_DIR: rt, REST_DAEMON_IDLE: '30', XDG_CONFIG_HOME: '', XDG_DATA_HOME: '' });
  const per = { curl: [], rest: [] };
  for (const l of out.trim().split('\n')) {
    const [k, a, b] = l.split(' ');
    per[k].push(((Number(b) - Number(a)) * 1000) / N);
  }
  const c = median(per.curl);
  const r = median(per.rest);

  process.stderr.write('tls bench: HTTP/2 vs HTTP/1.1 in the engine, curl --http2 beside\n');
  // The engine's send, bundled from the sources as engine.bench.mjs does.
  const bundle = path.join(home, 'send-bench.mjs');
  await build({
    stdin: { contents: "export { send, closeConnections } from './engine/src/http/send.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    outfile: bundle,
    logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const { send, closeConnections } = await import(pathToFileURL(bundle).href);
  const engineRun = async (http2) => {
    const t0 = performance.now();
    for (let i = 0; i < H2_N; i++) {
      const ex = await send({ method: 'GET', url: `${h2.url}/x${i}`, headers: [] }, { http2, trust: { caFile: path.join(h2.dir, 'ca.pem'), env: {} }, proxy: { env: {} } });
      if (ex.response.httpVersion !== (http2 ? '2' : '1.1')) throw new Error(`answered HTTP/${ex.response.httpVersion}`);
    }
    return (performance.now() - t0) / H2_N;
  };
  const urls = Array.from({ length: H2_N }, (_, i) => `${h2.url}/x${i}`);
  const curlRun = async () => {
    const t0 = performance.now();
    await run('curl', ['-s', '--http2', '--cacert', path.join(h2.dir, 'ca.pem'), '-o', '/dev/null', ...urls.flatMap((u) => [u, '-o', '/dev/null'])]);
    return (performance.now() - t0) / H2_N;
  };
  const times = { h2: [], h1: [], curl: [] };
  for (let i = 0; i < ROUNDS; i++) {
    times.h2.push(await engineRun(true));
    times.h1.push(await engineRun(false));
    times.curl.push(await curlRun());
  }
  await closeConnections();
  const f = (x) => x.toFixed(2);
  const lines = [
    '## Client certificates and HTTP/2 (issue 20)',
    '',
    `Mutual TLS through the shell verbs: ${N} sequential \`GET /x --cacert --cert --key\` (bash, the daemon) to a local server that requires a client certificate (test/fixtures/private-ca.mjs --mtls), against ${N} \`curl -s\` with the same options from the same shell; median of ${ROUNDS} alternating rounds. The engine checks the certificate files on each call (a stat; parsed once per version) and keeps the TLS connection; curl loads the files and shakes hands on each call. Target: at most 1.25x curl per call.`,
    '',
    '| curl -s --cert (ms/call) | GET --cert via daemon (ms/call) | ratio | rounds rest/curl (ms) |',
    '|---:|---:|---:|---|',
    `| ${f(c)} | ${f(r)} | ${(r / c).toFixed(2)}x | ${per.rest.map((x, i) => `${f(x)}/${f(per.curl[i])}`).join(', ')} |`,
    '',
    `Target (1.25x) ${r / c <= 1.25 ? 'met' : 'NOT met'}.`,
    '',
    `HTTP/2 in the engine: ${H2_N} sequential GETs with \`send\` to a node:http2 server, offering h2 (\`--http2\`) and not (HTTP/1.1 keep-alive), against one \`curl --http2\` fetching the same ${H2_N} URLs over one connection; ms per request, median of ${ROUNDS} rounds. Informational (no target).`,
    '',
    '| engine HTTP/2 (ms/req) | engine HTTP/1.1 (ms/req) | curl --http2, one process (ms/req) |',
    '|---:|---:|---:|',
    `| ${f(median(times.h2))} | ${f(median(times.h1))} | ${f(median(times.curl))} |`,
    '',
    `Load average at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(', ')} on ${os.cpus().length} cores (a shared machine: both sides of each comparison ran in the same rounds).`,
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  mtls.stop();
  h2.stop();
  fs.rmSync(home, { recursive: true, force: true });
}
process.exit(0);
