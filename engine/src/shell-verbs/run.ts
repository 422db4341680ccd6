/**
 * One shell verb call: a plain argument vector (built by shell/rest) -> the request -> the
 * bytes for stdout and stderr and the exit status. Pure of process-wide state, so the same
 * function serves the direct mode (`engine.cjs cli run ...`) and the daemon (docs/shell.md).
 *
 * The request is built by `build-request.ts` (the argument vector is described there); it goes
 * out through the session's one exchange path (../session/exchange.ts: the history entry, the
 * cookie jar, the engine's `send` or the real curl for options the engine does not perform,
 * the -v lines of ../session/trace.ts). This file is the adapter around it: --sheet and
 * --dry-run, the streaming sink that decides where the response body goes, and the exit status.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { EngineError, isEngineError, toEngineError } from '../errors.js';
import { withCallScope } from '../call-scope.js';
import { headerValue, type Request, type Response } from '../model.js';
import { SinkError } from '../http/send.js';
import { collect, Forward, holdUpTo, type Outputs } from './output.js';
import { curlSessionArgs, verbAuth, withAuthLine } from './curl-session.js';
import { parseContentType } from '../present/present.js';
import { EventSplitter, streamKindFor } from '../present/stream-events.js';
import { renderHtml } from '../present/html.js';
import { toCurl } from '../curl/to-curl.js';
import { rememberPath } from '../session/history.js';
import { requestToSheet } from '../sheet/write.js';
import { buildRequest, fileBodyAbsolute, withPipedBody, type BuildInput, type Built } from './build-request.js';
import { headerBlock, statusLine } from '../session/trace.js';
import { maskSecrets } from '../mask.js';
import { exchange, type SinkHead } from '../session/exchange.js';
import { openCallJar } from '../session/jar.js';
import { CALLER_VARIABLES } from './caller-env.js';

/** Exit statuses besides 0 and the status class digits 1, 3, 4, 5 (docs/shell.md). */
export const EXIT = { usage: 2, transport: 6, failure: 8, writeError: 23 } as const;

/** Bodies held whole to render HTML (lynx -dump) up to this size; larger pass unchanged. */
export const RENDER_MAX = 16 * 1024 * 1024;

/** One verb call: what {@link buildRequest} reads, and where the output goes. */
export interface RunInput extends BuildInput {
  /** Where stdout and stderr go as they are produced; default: collected in the RunOutput. */
  outputs?: Outputs;
  /** Aborts the call (the caller went away): the upstream request is cancelled. */
  signal?: AbortSignal;
  /** The caller's PATH, to find lynx, html2text and curl. */
  pathEnv: string;
  /**
   * The caller's environment, for the proxy and CA variables (http/proxy.ts, http/trust.ts): the direct mode's own,
   * the calling shell's through the daemon (never the daemon's). Default: this process's.
   */
  env?: Record<string, string | undefined>;
}

export interface RunOutput {
  stdout: Buffer[];
  stderr: Buffer[];
  code: number;
}

/**
 * Run one verb call. Bodies stream: the response body goes to `outputs.stdout` (2xx) or
 * `outputs.stderr` (other statuses) as it arrives; a request body read from a file or stdin
 * is sent as it is read. Without `outputs`, both are collected in the result (tests).
 * @returns the exit status: 0 for 2xx, the first status digit otherwise, 2 for a usage
 *   error, curl's own exit code for a transport failure (6, 7, 28, 35, 47, 52, 56, 60; docs/shell.md),
 *   23 when the output was closed early, 8 for anything else.
 */
export async function run(input: RunInput): Promise<RunOutput> {
  const out: RunOutput = { stdout: [], stderr: [], code: 0 };
  const outputs: Outputs = input.outputs ?? { stdout: collect(out.stdout), stderr: collect(out.stderr) };
  const err = (s: string) =>
    new Promise<void>((resolve) => {
      outputs.stderr.write(Buffer.from(s, 'utf8'), () => resolve());
    });
  try {
    // An error a library throws outside our awaits ends this call alone (src/call-scope.ts).
    return await withCallScope((signal) => runCall({ ...input, signal }, out, outputs, err), input.signal);
  } catch (e) {
    const ee = toEngineError(e);
    await err(`rest: ${ee.message}${ee.hint ? ` (${ee.hint})` : ''}\n`);
    out.code = EXIT.failure;
    return out;
  }
}

/** {@link run} inside its call scope. */
async function runCall(input: RunInput, out: RunOutput, outputs: Outputs, err: (s: string) => Promise<void>): Promise<RunOutput> {
  let built: Built | undefined;
  let bodyOut: Forward | undefined;
  /** The -o file, once opened: a write error there is said (a closed pipe is not). */
  let outFile: string | undefined;
  let streamEvents: EventSplitter | undefined;
  try {
    built = await buildRequest(input);
    const b = built;
    const timeoutMs = b.opts.maxTime !== undefined && b.opts.maxTime > 0 ? b.opts.maxTime * 1000 : undefined;
    if (b.flags.sheet) {
      // --sheet: the request as sheet text (src/sheet/write.ts); a piped body is read whole.
      outputs.stdout.write(Buffer.from(requestToSheet(fileBodyAbsolute(withAuthLine(b, await withPipedBody(b)), input.cwd)) + '\n', 'utf8'));
      return out;
    }
    if (b.flags.dryRun) {
      // The printed command carries a piped body as bytes (a file body stays @file).
      b.request = await withPipedBody(b);
      const extra = ['-s', '-L', ...curlSessionArgs(b, timeoutMs)];
      // -b NAME=VALUE stays -b, so curl merges it with the jar's cookies as the engine does.
      if (b.cookies) {
        b.request = { ...b.request, headers: b.request.headers.filter((h) => h !== b.cookies) };
        extra.push('-b', b.cookies[1]);
      }
      if (b.opts.include) extra.push('-i');
      if (b.opts.verbose) extra.push('-v');
      if (b.opts.output !== undefined) extra.push('-o', b.opts.output);
      extra.push(...b.opts.unknown);
      outputs.stdout.write(Buffer.from(toCurl(b.request, { extraArgs: extra }) + '\n', 'utf8'));
      return out;
    }
    const viaCurl = b.opts.unknown.length > 0;
    let finalStatus = 0;
    let bodyOnStdout = true;
    // The final response decides where its body goes: stdout for 2xx, stderr otherwise, or -o
    // (the session's streaming sink; -v lines come before it, from the session's trace).
    const route = async (head: SinkHead, request: Request): Promise<Writable> => {
      const r: Response = { httpVersion: head.httpVersion, status: head.status, statusText: head.statusText, headers: head.headers, body: Buffer.alloc(0) };
      finalStatus = r.status;
      const ok = r.status >= 200 && r.status < 300;
      out.code = ok ? 0 : Math.floor(r.status / 100) || EXIT.failure;
      const headOnly = request.method === 'HEAD' || b.opts.head;
      // A body for stdout, its length known (bytes) or not: the caller may pick its way now.
      if (ok && !headOnly && b.opts.output === undefined) {
        const cl = headerValue(r.headers, 'content-length');
        outputs.pick?.(cl !== undefined && /^\d+$/.test(cl.trim()) ? Number(cl) : undefined);
      }
      const target = ok ? outputs.stdout : outputs.stderr;
      bodyOnStdout = ok;
      if (headOnly || b.opts.include) target.write(Buffer.from(headerBlock(r), 'latin1'));
      if (headOnly) return new Writable({ write: (_c, _e, cb) => cb() });
      if (b.opts.output !== undefined && b.opts.output !== '-') {
        const file = path.resolve(input.cwd, b.opts.output);
        const ws = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', (e) => reject(new EngineError('file-unreadable', `cannot write ${b.opts.output}: ${e.message}`, { hint: 'Check the file name after -o.' })));
        });
        outFile = b.opts.output;
        return ws;
      }
      bodyOut = new Forward(target);
      // A stream (SSE, NDJSON) goes out as it arrives; its events are counted for a timeout's message.
      const kind = streamKindFor(headerValue(r.headers, 'content-type'), false);
      if (kind) {
        const dec = new TextDecoder();
        streamEvents = new EventSplitter(kind, { onEvent: () => undefined });
        const events = streamEvents;
        bodyOut.tap = (c) => events.feed(dec.decode(c, { stream: true }));
      }
      const { type, charset } = parseContentType(headerValue(r.headers, 'content-type'));
      if (!b.flags.noHtml && (type === 'text/html' || type === 'application/xhtml+xml')) {
        return holdUpTo(bodyOut, RENDER_MAX, (body) => (body.length ? renderHtml(body, charset, input.pathEnv, request.url) : body));
      }
      return bodyOut;
    };
    const callerEnv = input.env ?? process.env;
    // -b NAME=VALUE goes after the jar's cookies in one Cookie header (curl's rule).
    const req: Request = viaCurl ? b.request : { ...b.request, headers: [...b.own, ...b.request.headers.filter((h) => h !== b.cookies)] };
    const warn = (w: string) => err(`rest: warning: ${w}\n`);
    const { exchange: ex, jarWarning } = await exchange(req, {
      ...(b.flags.historyFile ? { history: { file: b.flags.historyFile, secrets: b.flags.historySecrets, as: fileBodyAbsolute(withAuthLine(b, b.request), input.cwd) } } : {}),
      warn,
      sink: route,
      // -v: the tokens of `{{$auth.token}}` masked, as hurl's --secret (docs/shell.md); other credentials shown, as curl -v.
      ...(b.opts.verbose ? { trace: b.secrets.length ? (lines: string) => err(maskSecrets(lines, b.secrets)) : err, traceConnection: { socketPath: b.opts.unixSocket, http2: b.opts.http2 } } : {}),
      ...(viaCurl
        ? { viaCurl: { extraArgs: [...curlSessionArgs(b, timeoutMs), ...b.opts.unknown], bodyStream: b.bodyStream, cwd: input.cwd, pathEnv: input.pathEnv, callerVars: Object.fromEntries(CALLER_VARIABLES.map((n) => [n, callerEnv[n]])), writeOut: (t: Buffer) => outputs.stdout.write(t) } }
        : { jar: openCallJar(b.cookieLoad, b.cookieSave, b.opts.junkSession) }),
      send: {
        timeoutMs,
        ...(b.opts.connectTimeout !== undefined && b.opts.connectTimeout > 0 ? { connectTimeoutMs: b.opts.connectTimeout * 1000 } : {}),
        signal: input.signal,
        followRedirects: true,
        maxRedirects: b.opts.maxRedirs,
        insecure: b.opts.insecure,
        decode: b.opts.compressed,
        bodyStream: b.bodyStream,
        ...(b.cookies ? { cookies: b.cookies[1] } : {}),
        proxy: { proxy: b.opts.proxy, noProxy: b.opts.noProxy, proxyUser: b.opts.proxyUser, env: callerEnv },
        trust: { caFile: b.opts.cacert, env: callerEnv, cwd: input.cwd },
        auth: verbAuth(b, req.headers.map(([n]) => n), callerEnv, input.cwd),
        clientCert: { cert: b.opts.cert, key: b.opts.key, pass: b.opts.pass, cwd: input.cwd },
        http2: b.opts.http2,
        ...(b.opts.unixSocket !== undefined ? { unixSocket: path.resolve(input.cwd, b.opts.unixSocket) } : {}),
      },
    });
    if (jarWarning) void warn(jarWarning);
    // On a terminal, the output ends on its own line (bytes stay exact when piped).
    // Through the daemon stderr is a file shown after the call, so the newline must follow the
    // body on its own stream, or -v lines and the prompt would not start on a fresh line.
    if (bodyOut && bodyOut.bytes > 0 && bodyOut.last !== 0x0a) {
      if (bodyOnStdout && input.outputs?.tty) outputs.stdout.write('\n');
      else if (!bodyOnStdout && input.outputs?.ttyErr) await err('\n');
    }
    // A non-2xx answer with no body would print nothing at all: on a terminal, say its status
    // line (piped or redirected stderr stays byte-exact, as curl's).
    const headShown = b.opts.include || b.opts.verbose || b.opts.head || ex.request.method === 'HEAD';
    if (!bodyOnStdout && bodyOut && bodyOut.bytes === 0 && input.outputs?.ttyErr && !headShown && b.opts.output === undefined) {
      await err(`${statusLine(ex.response)}\n`);
    }
    // resty's rule sends a `?` typed in the path as %3F, a path character: a 404 then most
    // likely means the user meant a query string (docs/shell.md, "URLs").
    if (finalStatus === 404 && !b.flags.raw && b.typedPath.includes('?')) {
      await err(`rest: hint: the ? in ${b.typedPath} was sent as %3F, part of the path; for a query string use -q 'name=value' (or -Q to send the path as typed)\n`);
    }
    // Completion's path history: paths the server answered, 404 excepted (src/session/history.ts).
    if (b.flags.pathsFile && finalStatus && finalStatus !== 404) {
      const w = rememberPath(b.flags.pathsFile, b.typedPath);
      if (w) await err(`rest: warning: ${w}\n`);
    }
    return out;
  } catch (e) {
    if (e instanceof SinkError && outFile !== undefined) {
      // The -o file could not take the body (a full disk, a quota): curl's 23, said as curl does.
      await err(`rest: cannot write ${outFile}: ${(e.cause as Error)?.message ?? e.message} (Failure writing output to destination; the file is incomplete)\n`);
      out.code = EXIT.writeError;
      return out;
    }
    if (e instanceof SinkError || (input.signal?.aborted && !isEngineError(e))) {
      // The reader went away (a closed pipe): curl's "write error", quietly.
      out.code = EXIT.writeError;
      return out;
    }
    const ee = isEngineError(e) ? e : toEngineError(e);
    if (ee.code === 'cancelled' && input.signal?.aborted) {
      out.code = EXIT.writeError;
      return out;
    }
    const usage = ['bad-option', 'bad-argument', 'invalid-url', 'unknown-variable', 'bad-environment', 'vars-cycle', 'bad-auth'].includes(ee.code);
    const curlExit = typeof ee.details?.curlExit === 'number' ? ee.details.curlExit : undefined;
    // A partial body on a terminal: the message starts on a fresh line.
    const fresh = bodyOut && bodyOut.bytes > 0 && bodyOut.last !== 0x0a ? '\n' : '';
    // The whole call's limit ran out: say it was -m's (the connect timeout says its own).
    const maxTime = built?.opts.maxTime;
    const hint = ee.code === 'timeout' && ee.details?.phase === undefined && maxTime ? `the limit of -m/--max-time ${maxTime} s applied; raise it with -m SECONDS, or check that the server answers` : ee.hint;
    // A stream cut short says how much of it came (issue 40): `after 3 events`.
    const n = streamEvents?.count;
    const got = n !== undefined && (ee.code === 'timeout' || ee.code === 'network-error') ? `; the stream had sent ${n} event${n === 1 ? '' : 's'}` : '';
    await err(`${fresh}rest: ${ee.message}${got}${hint ? ` (${hint})` : ''}\n`);
    out.code = curlExit ?? (usage ? EXIT.usage : EXIT.failure);
    return out;
  }
}
