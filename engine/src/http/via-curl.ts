/**
 * The curl fallback transport: a request sent through the real curl, streaming both ways, for
 * a shell verb given an option the engine does not know (passed to curl unchanged; docs/shell.md,
 * "What is streamed, what is buffered"). The verb decides the extra curl options
 * (shell-verbs/curl-session.ts); this file only runs curl and reads its answer.
 */
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import { EngineError } from '../errors.js';
import type { Exchange, Header, Request, Response } from '../model.js';
import { curlArgv } from '../curl/argv.js';
import { isRedirect } from './redirects.js';
import type { BodyStream } from './request-body.js';
import { curlExitError } from './transport-error.js';
import { which } from '../which.js';

/** Where the final response's body goes, decided once its status line and headers are known. */
export type Route = (r: Response) => Promise<Writable>;

/** What the curl fallback needs besides the request. */
export interface CurlTransport {
  /** Options given to curl after the request's own (cookies, timeouts, the unknown options). */
  extraArgs: string[];
  /** The request body as a stream (sent with `-T -`); else the request's bytes on stdin. */
  bodyStream?: BodyStream;
  /** curl's working directory (the caller's) and PATH (where curl is found). */
  cwd: string;
  pathEnv: string;
  /**
   * The caller's proxy and CA variables (http/proxy.ts, http/trust.ts), in place of this
   * process's: each name given is set to its value, or unset when the value is undefined.
   */
  callerVars?: Record<string, string | undefined>;
  /**
   * Where curl's `-w`/`--write-out` text goes: curl writes it to its stdout, apart from a body
   * sent to `-o FILE` or, for an error status, to stderr (curl's manual, `-w`). Without it the
   * text follows the body, wherever the body goes.
   */
  writeOut?: (text: Buffer) => void;
}

/** Put before a `-w` format (after `%{stderr}`): what curl writes after it is the -w text. */
const WRITE_OUT_MARK = '\u0001rest -w\u0001';

/** `-w FORMAT` / `--write-out FORMAT` / `-wFORMAT` written to curl's stderr after the mark (a `@file` format is left alone). */
function markWriteOut(args: string[]): string[] {
  const mark = (f: string) => (f.startsWith('@') ? f : `%{stderr}${WRITE_OUT_MARK}${f}`);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if ((a === '-w' || a === '--write-out') && i + 1 < args.length) out.push(a, mark(args[++i]!));
    else out.push(/^-w./.test(a) ? `-w${mark(a.slice(2))}` : a);
  }
  return out;
}

/**
 * Send `request` through the real curl, streaming: curl writes the header blocks (`-D -`)
 * then the body on its stdout; the blocks are parsed off the front and the body flows to the
 * route of the final response. The request body goes to curl's stdin (`--data-binary @-`, or
 * `-T -` for a stream).
 *
 * @throws EngineError `network-error` when curl is not on PATH; for a failed transfer the code
 *   from curl's exit status (28 `timeout`, 6 `unknown-host`, 7 `connection-refused`, 47
 *   `too-many-redirects`, 35/60 `tls-error`, else `network-error`) with `details.curlExit`,
 *   named as transport-error.ts names the engine's own (`curlExitError`).
 */
export async function sendWithCurl(request: Request, t: CurlTransport, route: Route): Promise<Exchange> {
  const curl = which('curl', t.pathEnv);
  const url = request.url;
  if (!curl) throw new EngineError('network-error', `${url}: an option needs curl, and curl is not on PATH`, { hint: 'Install curl, or leave out the options the engine does not know.', details: { url } });
  const extra = ['-s', '-S', '-L', ...(t.writeOut ? markWriteOut(t.extraArgs) : t.extraArgs), '-D', '-'];
  const args = curlArgv(request, { bodyFile: request.body ? '-' : undefined, extraArgs: extra });
  if (t.bodyStream) {
    // -T streams where --data-binary @- reads everything first; keep the method.
    const i = args.indexOf('--data-binary');
    args.splice(i, 2, '-T', '-');
  }
  const started = performance.now();
  const env: Record<string, string | undefined> = { ...process.env, PATH: t.pathEnv };
  // The daemon's own proxy and CA variables are not the caller's: curl gets only the caller's.
  for (const [n, v] of Object.entries(t.callerVars ?? {})) {
    if (v === undefined) delete env[n];
    else env[n] = v;
  }
  const child = spawn(curl, args, { cwd: t.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  // With writeOut, stderr is kept whole (curl's messages and the -w text: a few lines).
  let errAll = Buffer.alloc(0);
  child.stderr.on('data', (d: Buffer) => {
    if (t.writeOut && errAll.length < 1 << 20) errAll = Buffer.concat([errAll, d]);
    err = (err + d.toString('utf8')).slice(-4000);
  });
  child.stdin.on('error', () => undefined);
  if (t.bodyStream) t.bodyStream.open().pipe(child.stdin);
  else if (request.body) child.stdin.end(request.body.kind === 'bytes' ? request.body.bytes : Buffer.from(request.body.text));
  else child.stdin.end();
  const exited = new Promise<number>((resolve) => {
    child.on('error', (e) => {
      err += String(e);
      resolve(127);
    });
    child.on('close', (c) => resolve(c ?? 1));
  });
  // Header blocks: one per response (1xx, followed redirects); the last one is the final.
  let head = Buffer.alloc(0);
  let response: Response | undefined;
  let sink: Writable | undefined;
  let sinkDone: Promise<void> = Promise.resolve();
  const parseBlock = (text: string): Response => {
    const lines = text.split(/\r?\n/);
    const sm = /^HTTP\/(\S+)\s+(\d{3})\s*(.*)$/.exec(lines[0]!);
    const headers: Header[] = [];
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      if (i > 0) headers.push([l.slice(0, i), l.slice(i + 1).trim()]);
    }
    return { httpVersion: sm?.[1] ?? '1.1', status: Number(sm?.[2] ?? 0), statusText: sm?.[3] ?? '', headers, body: Buffer.alloc(0) };
  };
  // A 1xx, or a redirect curl -L follows: another block comes after it; with --digest, a 401
  // too (curl answers the challenge; a second 401 is final, no block comes after it).
  const digest = t.extraArgs.includes('--digest');
  const more = (r: Response) => r.status < 200 || isRedirect(r.status, r.headers) || (digest && r.status === 401);
  // The final response's sink, with what of its body is already read.
  const open = async (r: Response) => {
    const s = await route(r);
    sink = s;
    sinkDone = new Promise((res, rej) => {
      s.once('finish', res);
      s.once('error', rej);
    });
    if (head.length && !s.write(head)) await new Promise((r2) => s.once('drain', r2));
    head = Buffer.alloc(0);
  };
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    if (sink) {
      if (!sink.write(chunk)) await new Promise((r) => sink!.once('drain', r));
      continue;
    }
    head = Buffer.concat([head, chunk]);
    for (;;) {
      const end = head.indexOf('\r\n\r\n');
      if (end < 0 || !/^HTTP\//.test(head.subarray(0, 5).toString('latin1'))) break;
      const r = parseBlock(head.subarray(0, end).toString('latin1'));
      head = head.subarray(end + 4);
      response = r;
      // What follows may be the next block, or the start of it not read yet (even "HT").
      if (more(r) && 'HTTP/'.startsWith(head.subarray(0, 5).toString('latin1'))) continue;
      await open(r);
      break;
    }
  }
  const code = await exited;
  if (!sink && response) await open(response);
  (sink as Writable | undefined)?.end();
  await sinkDone;
  const w = errAll.indexOf(WRITE_OUT_MARK);
  if (t.writeOut && w >= 0) {
    t.writeOut(errAll.subarray(w + Buffer.byteLength(WRITE_OUT_MARK)));
    err = errAll.subarray(0, w).toString('utf8').slice(-4000);
  }
  // A 1xx as the last status (the server hung up after it) is what curl reports: a response.
  if (!response || (code !== 0 && response.status >= 200)) {
    throw curlExitError(code, err, url, !!response);
  }
  return { request: request, response, redirects: [], durationMs: performance.now() - started };
}

