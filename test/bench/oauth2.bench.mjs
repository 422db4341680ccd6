#!/usr/bin/env node
// OAuth2 token benchmarks (issue 39; make bench; `node test/bench/run.mjs oauth2`). Prints one
// Markdown section on stdout, progress on stderr. Builds Session from engine/src with esbuild's
// JS API into a temporary directory, as http-file.bench.mjs does. Servers in their own
// processes on 127.0.0.1: the example API (test/fixtures/server.mjs) and the OAuth2 provider
// (test/fixtures/oauth2-idp.mjs, oauth2-mock-server; Client Credentials).
//
// Measured, with the anchor in the same run, interleaved:
// - per request, in-process: `Session.send` of `GET /small` with `Authorization: Bearer
//   {{$auth.token("svc")}}` (the token cached after the first request) against the same request
//   with a literal token; the overhead is the difference of the medians (target < 0.5 ms);
// - `sheet run --env dev` of a .http file of 100 such requests (whole command, process start
//   and the one token request included; a fresh token directory each run) against the same
//   file with a literal token (target < 1.1 x).
import { spawn } from 'node:child_process';
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'oauth2-bench-'));
const out = path.join(work, 'oauth2-bench.mjs');
await build({
  stdin: { contents: "export { Session } from './engine/src/session/session.ts';", resolveDir: root, loader: 'ts' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  outfile: out,
  logLevel: 'warning',
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
const { Session } = await import(pathToFileURL(out).href);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** Start a fixture server in its own process; its port once it wrote its port file. */
async function start(script) {
  const portFile = path.join(work, `${path.basename(script)}.port`);
  const child = spawn(process.execPath, [path.join(root, 'test/fixtures', script), ...(script === 'server.mjs' ? ['--port', '0'] : []), '--port-file', portFile], { stdio: 'ignore' });
  for (let i = 0; i < 400 && !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim()); i++) await new Promise((r) => setTimeout(r, 50));
  if (!fs.existsSync(portFile)) throw new Error(`${script} did not start`);
  return { child, url: `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8').trim()}` };
}

const api = await start('server.mjs');
const idp = await start('oauth2-idp.mjs');
try {
  fs.writeFileSync(path.join(work, 'http-client.env.json'), JSON.stringify({ dev: { base: api.url, Security: { Auth: { svc: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': `${idp.url}/token`, 'Client ID': 'cli', 'Client Secret': 'bench-secret' } } } } }));
  const LITERAL = 'eyJhbGciOiJSUzI1NiJ9.literal-token-of-the-same-shape.signature';
  const one = (auth) => `GET {{base}}/small\nAuthorization: Bearer ${auth}\n`;
  const tokenReq = one('{{$auth.token("svc")}}');
  const literalReq = one(LITERAL);
  const load = os.loadavg()[0].toFixed(2);

  // (1) per request, in-process.
  process.env.SHEET_STATE_DIR = fs.mkdtempSync(path.join(work, 'state-'));
  const session = new Session();
  const file = path.join(work, 'one.http');
  const send = (text) => session.send({ text, line: 1, path: file, env: 'dev' });
  await send(tokenReq); // the one token request
  for (let i = 0; i < 50; i++) {
    await send(tokenReq);
    await send(literalReq);
  }
  const N = Number(process.env.OAUTH2_BENCH_REQUESTS ?? 500);
  const tTok = [];
  const tLit = [];
  for (let i = 0; i < N; i++) {
    for (const [text, into] of i % 2 ? [[tokenReq, tTok], [literalReq, tLit]] : [[literalReq, tLit], [tokenReq, tTok]]) {
      const t = performance.now();
      await send(text);
      into.push(performance.now() - t);
    }
  }
  const perTok = median(tTok);
  const perLit = median(tLit);
  const overhead = perTok - perLit;
  process.stderr.write(`  per request: $auth.token ${perTok.toFixed(3)} ms, literal ${perLit.toFixed(3)} ms\n`);

  // (2) sheet run of 100 requests.
  const R = 100;
  const many = (auth) => Array.from({ length: R }, (_, i) => `### r${i}\nGET {{base}}/small?i=${i}\nAuthorization: Bearer ${auth}\n`).join('\n');
  fs.writeFileSync(path.join(work, 'token.http'), many('{{$auth.token("svc")}}'));
  fs.writeFileSync(path.join(work, 'literal.http'), many(LITERAL));
  const wall = (name) => new Promise((resolve, reject) => {
    const t = performance.now();
    const env = { ...process.env, SHEET_STATE_DIR: fs.mkdtempSync(path.join(work, 'state-')) };
    const child = spawn(process.execPath, [path.join(root, 'engine/bin/sheet'), 'run', '--env', 'dev', name], { cwd: work, env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t) : reject(new Error(`sheet run ${name} exited ${code}: ${err}`))));
  });
  await wall('token.http');
  await wall('literal.http');
  const rTok = [];
  const rLit = [];
  for (let i = 0; i < 7; i++) {
    for (const [name, into] of i % 2 ? [['token.http', rTok], ['literal.http', rLit]] : [['literal.http', rLit], ['token.http', rTok]]) into.push(await wall(name));
  }
  const runTok = median(rTok);
  const runLit = median(rLit);
  const ratio = runTok / runLit;
  process.stderr.write(`  sheet run: $auth.token ${runTok.toFixed(0)} ms, literal ${runLit.toFixed(0)} ms\n`);

  const lines = [
    '## oauth2',
    '',
    `test/bench/oauth2.bench.mjs (issue 39): the example API and the OAuth2 provider (oauth2-mock-server, Client Credentials) each in its own process on 127.0.0.1; the two cases interleaved; load average ${load} at the start (2 cores shared with other work).`,
    '',
    '| case | `$auth.token` | literal token | result | target |',
    '|---|---|---|---|---|',
    `| \`Session.send\` of one GET /small, the token cached (median of ${N} each) | ${perTok.toFixed(3)} ms | ${perLit.toFixed(3)} ms | overhead ${overhead.toFixed(3)} ms | < 0.5 ms ${overhead < 0.5 ? 'met' : 'NOT met'} |`,
    `| \`sheet run --env dev\` of ${R} requests, one token request, whole command (median of 7) | ${runTok.toFixed(0)} ms | ${runLit.toFixed(0)} ms | ${ratio.toFixed(3)} x | < 1.1 x ${ratio < 1.1 ? 'met' : 'NOT met'} |`,
    '',
  ];
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  api.child.kill();
  idp.child.kill();
  fs.rmSync(work, { recursive: true, force: true });
}
