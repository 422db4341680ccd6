// The latency probes of streams.bench.mjs (issue 40): each runs one front end on one timed SSE
// stream of test/fixtures/streams.mjs and resolves to the latency of each event, in ms, from
// the server's write (the `t` each event carries: performance.timeOrigin + performance.now() in
// the server, this process) to where the front end shows it. The clock is the same wall clock
// with sub-millisecond resolution on both sides (timeOrigin + now(); in `sheet run`'s handler the
// sandbox's `performance`, whose `timeOrigin` is the worker thread's), read by this process when
// the command's output arrives, or by the handler itself.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const now = () => performance.timeOrigin + performance.now();

/** A stream's 'data' handler that notes the latency of each event it carries (`"t":...`). */
const onData = (lat) => {
  let buf = '';
  return (d) => {
    const t = now();
    buf += d;
    const re = /"t":([0-9.]+)/g;
    for (let m; (m = re.exec(buf)); ) lat.push(t - Number(m[1]));
    buf = buf.slice(buf.lastIndexOf('\n') + 1);
  };
};

/**
 * `cmd args` with stdout a socket (Node's piped stdio is a socket pair: the daemon cannot open
 * it, so the shell's curl relays the events); the latencies of what it prints.
 */
export const readLatency = (cmd, args, env = process.env) =>
  new Promise((resolve) => {
    const lat = [];
    // stderr a socket too (read and dropped): the daemon cannot open it, so it relays both
    // streams through the shell's curl (src/shell-verbs/relay.ts), as from a terminal emulator's pipes.
    const c = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    c.stderr.resume();
    c.stdout.on('data', onData(lat));
    c.on('close', () => resolve(lat));
  });

/**
 * The same with stdout a pipe (a FIFO this process reads), as `GET ... | jq` gives the shell: the
 * daemon writes it itself (src/shell-verbs/caller-files.ts). The last argument is a shell command
 * line, redirected to the FIFO.
 */
export const readLatencyFifo = (cmd, args, env) =>
  new Promise((resolve) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-bench-fifo-'));
    const fifo = path.join(dir, 'out');
    spawnSync('mkfifo', [fifo]);
    const lat = [];
    const c = spawn(cmd, [...args.slice(0, -1), `${args.at(-1)} >"$FIFO"`], { env: { ...env, FIFO: fifo }, stdio: ['ignore', 'ignore', 'ignore'] });
    const rs = fs.createReadStream(fifo);
    rs.on('data', onData(lat));
    let n = 0;
    const done = () => {
      if (++n < 2) return;
      fs.rmSync(dir, { recursive: true, force: true });
      resolve(lat);
    };
    rs.on('close', done);
    c.on('close', done);
  });

/**
 * The shell's `GET` of the stream from checkout `root`, with its own runtime directory (the
 * daemon's): `bash -c` that sources shell/rest, starts the daemon with a first call and waits for
 * its socket (a call before it listens runs direct), then the timed GET.
 */
export function shellGet(root, url, n, every) {
  const rt = fs.mkdtempSync('/tmp/rest-bench-');
  const args = ['-c', `source "${root}/shell/rest"; rest ${url} >/dev/null; GET /sse/fast -q n=1 >/dev/null; i=0; while [ -z "$REST_NO_DAEMON" ] && [ ! -S "$REST_RUNTIME_DIR/engine.sock" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done; GET /sse/timed -q n=${n} -q every=${every}`];
  const env = { ...process.env, REST_RUNTIME_DIR: rt, HOME: rt };
  return {
    socket: () => readLatency('bash', args, env),
    pipe: () => readLatencyFifo('bash', args, env),
    direct: () => readLatency('bash', args, { ...env, REST_NO_DAEMON: '1' }),
    stop: () => {
      spawnSync('bash', ['-c', `source "${root}/shell/rest"; rest --stop`], { env });
      fs.rmSync(rt, { recursive: true, force: true });
    },
  };
}

/**
 * `sheet run` (checkout `root`) of a `.http` request whose JetBrains handler,
 * `response.body.onEachMessage`, takes each event's latency itself with the sandbox's
 * `performance.timeOrigin + performance.now()`, or, where the sandbox has no `performance` (an
 * engine before it), `Date.now()` (whole milliseconds: the values then run up to 1 ms low);
 * logged by its `onFinish`, read from `sheet run`'s output. Resolves to `{ lat, wholeMs, whole }`:
 * `whole` the same events taken with `Date.now()` in every engine, to compare two engines alike.
 */
export async function sheetRunHandler(root, url, n, every) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rest-bench-run-'));
  const handler = `const clock = typeof performance === 'object' ? () => performance.timeOrigin + performance.now() : () => Date.now();
  const lat = [];
  const whole = [];
  response.body.onEachMessage((m) => { lat.push(clock() - m.t); whole.push(Date.now() - m.t); }, () => client.log('LAT ' + (typeof performance === 'object' ? 'fine ' : 'whole ') + lat.map((x) => x.toFixed(3)).join(',') + ' WHOLE ' + whole.map((x) => x.toFixed(3)).join(',')));`;
  fs.writeFileSync(path.join(dir, 'stream.http'), `GET ${url}/sse/timed?n=${n}&every=${every}\n\n> {%\n  ${handler}\n%}\n`);
  // Not spawnSync: the server runs in this process.
  const out = await new Promise((resolve) => {
    let o = '';
    const c = spawn(process.execPath, [path.join(root, 'engine/dist/sheet.cjs'), 'run', 'stream.http'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] });
    c.stdout.on('data', (d) => (o += d));
    c.on('close', () => resolve(o));
  });
  fs.rmSync(dir, { recursive: true, force: true });
  const m = /LAT (fine|whole) (\S*) WHOLE (\S*)/.exec(out);
  const nums = (t) => (t ?? '').split(',').filter(Boolean).map(Number);
  return { lat: nums(m?.[2]), wholeMs: m?.[1] === 'whole', whole: nums(m?.[3]) };
}

/** The `p`th percentile of `xs` (nearest rank below). */
export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
