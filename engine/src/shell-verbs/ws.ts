/**
 * The shell's `WS PATH` verb (issue 40; docs/shell.md, "WebSocket"): the base URL with `ws://`
 * for `http://` and `wss://` for `https://`, each line of standard input sent as a text message,
 * each received message written to standard output on its own line as it arrives (websocat's
 * convention; a binary message as its bytes, then a newline). It ends when both sides are done:
 * standard input at its end and the server quiet for a second (../ws/script.ts), or the server
 * closes. Always the direct engine run (never the daemon): the call's standard input and
 * output are this process's own, line by line.
 *
 * `--binary` (websocat's `-b`): standard input is sent as binary messages, each chunk as it is
 * read (up to 64 KiB), not as lines.
 *
 * The argument vector is the verbs' (build-request.ts), so `-H`, `-u`, `-b`/`-c`, `-k`,
 * `--cacert`, `--cert`, `-x`, `--connect-timeout` and `-m` mean what they mean for GET.
 *
 * Exit statuses (curl's where one fits, docs/shell.md): 0 when the connection closed with 1000
 * or 1001 (or no code), or we closed it; the status's first digit for a refused handshake (its
 * body on standard error, as the other verbs do); 7, 6, 35, 60 for the transport as curl; 28 at
 * `-m`; 63 for a message over the size cap (curl's "maximum file size exceeded"); 56 for a
 * close by the server with another code, named with its reason on standard error.
 */
import path from 'node:path';
import readline from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { buildRequest, type BuildInput } from './build-request.js';
import { openCallJar } from '../session/jar.js';
import { websocketLive } from '../session/websocket.js';
import { toEngineError } from '../errors.js';
import { CURL_EXIT } from '../http/send.js';
import { EXIT } from './run.js';

/** What a `WS` call reads and writes. */
export interface WsCallInput extends Omit<BuildInput, 'readStdin'> {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

/**
 * Run one `WS` call.
 * @returns the exit status (see the file comment); errors are said on `stderr`, never thrown.
 */
export async function runWs(input: WsCallInput): Promise<number> {
  const say = (s: string) => new Promise<void>((resolve) => input.stderr.write(s, () => resolve()));
  try {
    // `--binary` (websocat's -b): our own option, taken from the option words before curl's are read.
    const n = Number(input.argv[6]);
    const head = Number.isInteger(n) && n >= 0 ? input.argv.slice(0, 7 + n) : input.argv;
    const tail = input.argv.slice(head.length);
    const binary = tail.includes('--binary');
    const b = await buildRequest({ ...input, argv: [...head, ...tail.filter((w) => w !== '--binary')], readStdin: async () => new Uint8Array(0) });
    const env = input.env ?? process.env;
    const request = { ...b.request, method: 'GET', body: undefined, websocket: true, headers: [...b.own.filter(([n]) => /^user-agent$/i.test(n)), ...b.request.headers] };
    // --binary: each chunk of standard input as read (up to 64 KiB, a pipe's) is one binary message, as websocat -b.
    const rl = binary ? undefined : readline.createInterface({ input: input.stdin, crlfDelay: Infinity });
    // The iterator now, before the handshake: readline drops the lines it reads before one exists.
    const it: AsyncIterator<string | Uint8Array> = rl ? rl[Symbol.asyncIterator]() : input.stdin[Symbol.asyncIterator]();
    const lines = { [Symbol.asyncIterator]: () => it };
    const out = await websocketLive(request, lines, {
      jar: openCallJar(b.cookieLoad, b.cookieSave, b.opts.junkSession),
      send: {
        ...(b.opts.maxTime ? { timeoutMs: b.opts.maxTime * 1000 } : {}),
        ...(b.opts.connectTimeout ? { connectTimeoutMs: b.opts.connectTimeout * 1000 } : {}),
        signal: input.signal,
        insecure: b.opts.insecure,
        proxy: { proxy: b.opts.proxy, noProxy: b.opts.noProxy, proxyUser: b.opts.proxyUser, env },
        trust: { caFile: b.opts.cacert, env, cwd: input.cwd },
        clientCert: { cert: b.opts.cert, key: b.opts.key, pass: b.opts.pass, cwd: input.cwd },
        ...(b.opts.unixSocket !== undefined ? { unixSocket: path.resolve(input.cwd, b.opts.unixSocket) } : {}),
      },
      onMessage: (m) => {
        input.stdout.write(m.binary ? Buffer.from(m.text, 'base64') : m.text);
        input.stdout.write('\n');
      },
    });
    rl?.close();
    if (out.jarWarning) await say(`rest: warning: ${out.jarWarning}\n`);
    const w = out.websocket;
    if (w.ended === 'refused') {
      // As the other verbs: a non-2xx body on stderr, the status's first digit as the exit status.
      input.stderr.write(out.handshake.body);
      await say(`${out.handshake.body.length && out.handshake.body[out.handshake.body.length - 1] !== 0x0a ? '\n' : ''}rest: ${w.url}: the server refused the WebSocket handshake: ${out.handshake.status} ${out.handshake.statusText}\n`);
      return Math.floor(out.handshake.status / 100) || EXIT.failure;
    }
    const c = w.close!;
    if (w.ended === 'timeout') {
      await say(`rest: ${w.url}: closed at the time limit (-m) after ${w.messages.length} messages\n`);
      return CURL_EXIT.timeout;
    }
    if (c.code === 1009) {
      await say(`rest: ${w.url}: ${c.reason}; closed with 1009\n`);
      return 63;
    }
    if (c.by === 'server' && c.code !== 1000 && c.code !== 1001 && c.code !== 1005) {
      await say(`rest: ${w.url}: the server closed the connection with ${c.code}${c.reason ? ` (${c.reason})` : ''}\n`);
      return CURL_EXIT.recv;
    }
    return 0;
  } catch (e) {
    const ee = toEngineError(e);
    await say(`rest: ${ee.message}${ee.hint ? ` (${ee.hint})` : ''}\n`);
    const exit = (ee.details as { curlExit?: number } | undefined)?.curlExit;
    const usage = ['bad-option', 'bad-argument', 'invalid-url', 'unknown-variable', 'bad-environment', 'vars-cycle', 'bad-auth'].includes(ee.code);
    return typeof exit === 'number' ? exit : usage ? EXIT.usage : EXIT.failure;
  }
}
