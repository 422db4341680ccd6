/**
 * One shell verb call: a plain argument vector (built by shell/rest) -> the request -> the
 * bytes for stdout and stderr and the exit status. Pure of process-wide state, so the same
 * function serves the direct mode (`engine.cjs cli run ...`) and the daemon (docs/shell.md).
 *
 * Argument vector (after `run`):
 *   METHOD BASE PATH BODYSRC BODY COOKIEFILE NLINES LINE... OPTION...
 * BODYSRC is `none`, `arg` (BODY is the body) or `stdin` (the body is the caller's stdin).
 * NLINES option lines of the per-host files (the `rest` file's first, then the host's) are
 * split shell-style; their words go in front of the OPTIONs (defaults, then the request's own).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import type { CookieJar } from 'tough-cookie';
import { EngineError, isEngineError, toEngineError } from '../errors.js';
import { headerValue, type Exchange, type Header, type Request, type Response } from '../model.js';
import { send, SinkError, type BodyStream } from '../http/send.js';
import { argBytes } from './bytes.js';
import { collect, Forward, holdUpTo, type Outputs } from './output.js';
import { sendWithCurl } from '../http/via-curl.js';
import { curlSessionArgs } from './curl-session.js';
import { which } from '../which.js';

import { jarCookies, loadJar, parseNetscape, toNetscape, trySaveJar } from '../http/cookies.js';
import { parseContentType } from '../present/present.js';
import { renderHtml } from '../present/html.js';
import { toCurl } from '../curl/to-curl.js';
import { basicAuthHeader, cookieHeader, dataContentType, urlencodeData, urlencodeText } from '../curl/rules.js';
import { emptyOptions, parseCurlOptions, type CurlOptions } from '../curl/options.js';
import { splitShellWords } from '../curl/words.js';
import { appendQuery, buildUrl } from './url.js';
import { VERSION } from '../version.js';
import { takeRestFlags, type RestFlags } from './flags.js';
import { envContext, shellEnvironment, substituteEnv } from './env.js';
import { appendHistory, rememberPath } from './history.js';
import { requestToSheet } from '../sheet/write.js';


/** Exit statuses besides 0 and the status class digits 1, 3, 4, 5 (docs/shell.md). */
export const EXIT = { usage: 2, transport: 6, failure: 8, writeError: 23 } as const;

/** Bodies held whole to render HTML (lynx -dump) up to this size; larger pass unchanged. */
export const RENDER_MAX = 16 * 1024 * 1024;

export interface RunInput {
  /** The argument vector as byte strings (src/cli/bytes.ts): raw bytes survive. */
  argv: string[];
  /** Reads the caller's whole standard input (`-d @-` joined with other data). */
  readStdin: () => Promise<Uint8Array>;
  /**
   * The caller's standard input as a stream, for a body sent as it is read (BODYSRC `stdin`,
   * `-T -`, a lone `--data-binary @-`); `size` when it is a regular file. Default: from readStdin.
   */
  stdinStream?: () => { stream: Readable; size?: number };
  /** Where stdout and stderr go as they are produced; default: collected in the RunOutput. */
  outputs?: Outputs;
  /** Aborts the call (the caller went away): the upstream request is cancelled. */
  signal?: AbortSignal;
  /** The caller's working directory, for relative file names (-o, -d @file, -b, -c). */
  cwd: string;
  /** The caller's PATH, to find lynx, html2text and curl. */
  pathEnv: string;
}

export interface RunOutput {
  stdout: Buffer[];
  stderr: Buffer[];
  code: number;
}

/** curl's rules for one -d/--data-* value. */
async function dataValue(part: CurlOptions['data'][number], input: RunInput, stdin: () => Promise<Uint8Array>): Promise<Buffer> {
  const readAt = async (name: string): Promise<Buffer> => {
    if (name === '-') return Buffer.from(await stdin());
    try {
      return await fs.promises.readFile(path.resolve(input.cwd, name));
    } catch (e) {
      throw new EngineError('file-unreadable', `cannot read ${name}: ${(e as Error).message}`, { hint: 'Check the file name after @.' });
    }
  };
  const v = part.value;
  switch (part.kind) {
    case 'raw':
      return argBytes(v);
    case 'data':
    case 'ascii':
      // -d @file: curl drops carriage returns and newlines.
      return v.startsWith('@') ? Buffer.from((await readAt(v.slice(1))).toString('latin1').replace(/[\r\n]/g, ''), 'latin1') : argBytes(v);
    case 'binary':
    case 'json':
      return v.startsWith('@') ? readAt(v.slice(1)) : argBytes(v);
    case 'urlencode': {
      // content | =content | name=content (curl/rules.ts); @file | name@file need the file.
      const inline = urlencodeData(v);
      if (inline !== undefined) return Buffer.from(inline);
      const at = v.indexOf('@');
      const encoded = urlencodeText((await readAt(v.slice(at + 1))).toString('utf8'));
      return Buffer.from(at === 0 ? encoded : `${v.slice(0, at)}=${encoded}`);
    }
  }
}

export interface Built {
  request: Request;
  /** The body read as a stream (standard input, -T file, a lone --data-binary @file). */
  bodyStream?: BodyStream;
  /** Headers the engine adds on its own (Accept, User-Agent) that curl would add itself. */
  own: Header[];
  opts: CurlOptions;
  flags: RestFlags;
  cookieLoad: string[];
  cookieSave: string;
  cookieFile: string;
  /** The path as typed (before `{{...}}` substitution and encoding): what completion offers. */
  typedPath: string;
}

/** Parse the argument vector and build the request (no I/O but reading body files). */
export async function buildRequest(input: RunInput): Promise<Built> {
  const a = input.argv;
  if (a.length < 7) throw new EngineError('bad-argument', 'run: too few arguments', { hint: 'This command is called by shell/rest; see docs/shell.md.' });
  const [method, base, pArg, bodySrc, bodyArgIn, cookieFile, nStr] = a as [string, string, string, string, string, string, string];
  const n = Number(nStr);
  if (!Number.isInteger(n) || n < 0 || a.length < 7 + n) throw new EngineError('bad-argument', `run: bad option line count ${JSON.stringify(nStr)}`);
  const words: string[] = [];
  for (const line of a.slice(7, 7 + n)) words.push(...splitShellWords(line));
  words.push(...a.slice(7 + n));

  const taken = takeRestFlags(words);
  const flags = taken.flags;
  let rest = taken.rest;
  let p = pArg;
  let bodyArg = bodyArgIn;
  if (flags.env !== undefined) {
    // rest --env NAME: {{...}} in the path, queries, body argument and option words (src/cli/env.ts).
    const ctx = envContext(shellEnvironment(input.cwd, flags.env));
    const sub = (t: string) => substituteEnv(t, ctx);
    p = sub(p);
    if (bodySrc === 'arg') bodyArg = sub(bodyArg);
    flags.queries = flags.queries.map(sub);
    rest = rest.map(sub);
  }
  const opts = parseCurlOptions(rest, emptyOptions());

  let stdinCache: Promise<Uint8Array> | undefined;
  const stdin = () => (stdinCache ??= input.readStdin());

  let url = buildUrl({ base, path: p, raw: flags.raw, queries: flags.queries });
  const parts: Buffer[] = [];
  let hasBody = false;
  let bodyStream: BodyStream | undefined;
  let streamPath = '';
  const fileStream = (name: string): BodyStream => {
    const f = path.resolve(input.cwd, name);
    let size: number;
    try {
      const st = fs.statSync(f);
      if (!st.isFile()) throw new Error('not a regular file');
      size = st.size;
    } catch (e) {
      throw new EngineError('file-unreadable', `cannot read ${name}: ${(e as Error).message}`, { hint: 'Check the file name.' });
    }
    streamPath = name;
    return { open: () => fs.createReadStream(f, { highWaterMark: 256 * 1024 }), length: size, reopen: true };
  };
  const stdinBody = (): BodyStream => {
    streamPath = '-';
    if (!input.stdinStream) return { open: () => Readable.from((async function* () { yield Buffer.from(await stdin()); })()), reopen: false };
    const s = input.stdinStream();
    return { open: () => s.stream, length: s.size, reopen: false };
  };
  if (opts.uploadFile !== undefined) {
    bodyStream = opts.uploadFile === '-' ? stdinBody() : fileStream(opts.uploadFile);
  } else if (bodySrc === 'arg') {
    parts.push(argBytes(bodyArg));
    hasBody = true;
  } else if (bodySrc === 'stdin' && opts.data.length === 0) {
    bodyStream = stdinBody();
  } else if (opts.data.length === 1 && opts.data[0]!.kind === 'binary' && opts.data[0]!.value.startsWith('@') && !opts.get) {
    // A lone --data-binary @file (or @-) is sent as it is read, as curl -T does.
    const name = opts.data[0]!.value.slice(1);
    bodyStream = name === '-' ? stdinBody() : fileStream(name);
    opts.data = [];
    hasBody = false;
  }
  let json = false;
  for (const d of opts.data) {
    parts.push(await dataValue(d, input, stdin));
    hasBody = true;
    if (d.kind === 'json') json = true;
  }
  let body: Buffer | undefined;
  if (hasBody) {
    // curl joins data options with '&' (the body argument counts as the first one).
    const joined: Buffer[] = [];
    parts.forEach((b, i) => {
      if (i > 0 && !json) joined.push(Buffer.from('&'));
      joined.push(b);
    });
    body = Buffer.concat(joined);
  }
  if (opts.get && body !== undefined) {
    url = appendQuery(url, body.toString('utf8'));
    body = undefined;
  }
  const m = opts.method ?? (opts.head ? 'HEAD' : opts.uploadFile !== undefined ? 'PUT' : method);

  const headers: Header[] = [...opts.headers];
  const has = (name: string) => headers.some(([h]) => h.toLowerCase() === name) || opts.removeHeaders.includes(name);
  if (opts.user !== undefined && !has('authorization')) headers.push(basicAuthHeader(opts.user));
  const formType = bodyStream !== undefined && opts.uploadFile === undefined;
  if ((body !== undefined || formType) && !has('content-type')) headers.push(['Content-Type', dataContentType(json)]);
  if (json && !has('accept')) headers.push(['Accept', 'application/json']);
  if (opts.compressed && !has('accept-encoding')) headers.push(['Accept-Encoding', 'deflate, gzip, br']);
  const own: Header[] = [];
  if (!has('user-agent')) own.push(['User-Agent', `rest/${VERSION}`]);
  if (!has('accept')) own.push(['Accept', '*/*']);
  if (opts.cookieStrings.length) headers.push(cookieHeader(opts.cookieStrings));

  const request: Request = {
    method: m,
    url,
    headers,
    body: bodyStream ? { kind: 'bytes', bytes: Buffer.alloc(0), path: streamPath } : body === undefined ? undefined : { kind: 'bytes', bytes: body },
  };
  const resolveFile = (f: string) => path.resolve(input.cwd, f);
  const cookieLoad = [cookieFile, ...opts.cookieFiles.map(resolveFile)].filter((f) => f !== '');
  const cookieSave = opts.cookieJar !== undefined ? resolveFile(opts.cookieJar) : cookieFile;
  return { request, bodyStream, own, opts, flags, cookieLoad, cookieSave, cookieFile, typedPath: pArg };
}

/** Load every cookie file into one jar. */
async function loadAll(files: string[], junk: boolean): Promise<CookieJar> {
  const jar = await loadJar(files[0] ?? null, junk);
  for (const f of files.slice(1)) {
    let text: string;
    try {
      text = await fs.promises.readFile(f, 'utf8');
    } catch {
      continue;
    }
    const store = jar.store as unknown as { putCookie(c: unknown): Promise<void> };
    for (const c of parseNetscape(text, junk)) await store.putCookie(c);
  }
  return jar;
}

function statusLine(r: Response): string {
  return `HTTP/${r.httpVersion} ${r.status}${r.statusText ? ' ' + r.statusText : ''}`;
}

function headerBlock(r: Response): string {
  return [statusLine(r), ...r.headers.map(([n, v]) => `${n}: ${v}`)].join('\r\n') + '\r\n\r\n';
}

function verboseLines(ex: Exchange, own: Header[]): string {
  const u = new URL(ex.request.url);
  const out = [`> ${ex.request.method} ${u.pathname}${u.search} HTTP/1.1`, `> Host: ${u.host}`];
  for (const [n, v] of [...own, ...ex.request.headers]) out.push(`> ${n}: ${v}`);
  out.push('>');
  out.push(`< ${statusLine(ex.response)}`);
  for (const [n, v] of ex.response.headers) out.push(`< ${n}: ${v}`);
  out.push('<');
  return out.join('\n') + '\n';
}



/** The request with a file body's name made absolute (a sheet is read from anywhere). */
function fileBodyAbsolute(r: Request, cwd: string): Request {
  const body = r.body;
  if (body?.kind !== 'bytes' || !body.path || body.path === '-') return r;
  return { ...r, body: { ...body, path: path.resolve(cwd, body.path) } };
}

/** The request with a body piped in read whole, for --dry-run and --sheet (nothing is sent). */
async function withPipedBody(b: Built): Promise<Request> {
  if (!b.bodyStream || b.request.body?.kind !== 'bytes' || b.request.body.path !== '-') return b.request;
  const chunks: Buffer[] = [];
  for await (const c of b.bodyStream.open()) chunks.push(Buffer.from(c as Buffer));
  return { ...b.request, body: { kind: 'bytes', bytes: Buffer.concat(chunks) } };
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
  let built: Built | undefined;
  let bodyOut: Forward | undefined;
  try {
    built = await buildRequest(input);
    const b = built;
    const timeoutMs = b.opts.maxTime !== undefined && b.opts.maxTime > 0 ? b.opts.maxTime * 1000 : undefined;
    if (b.flags.sheet) {
      // --sheet: the request as sheet text (src/sheet/write.ts); a piped body is read whole.
      outputs.stdout.write(Buffer.from(requestToSheet(fileBodyAbsolute(await withPipedBody(b), input.cwd)) + '\n', 'utf8'));
      return out;
    }
    if (b.flags.dryRun) {
      // The printed command carries a piped body as bytes (a file body stays @file).
      b.request = await withPipedBody(b);
      const extra = ['-s', '-L', ...curlSessionArgs(b, timeoutMs)];
      if (b.opts.include) extra.push('-i');
      if (b.opts.verbose) extra.push('-v');
      if (b.opts.compressed) extra.push('--compressed');
      if (b.opts.output !== undefined) extra.push('-o', b.opts.output);
      extra.push(...b.opts.unknown);
      outputs.stdout.write(Buffer.from(toCurl(b.request, { extraArgs: extra }) + '\n', 'utf8'));
      return out;
    }
    const viaCurl = b.opts.unknown.length > 0;
    if (b.flags.historyFile) {
      const w = appendHistory(b.flags.historyFile, fileBodyAbsolute(b.request, input.cwd), b.flags.historySecrets);
      if (w) await err(`rest: warning: ${w}\n`);
    }
    let finalStatus = 0;
    let bodyOnStdout = true;
    let verboseDone = false;
    // The final response decides where its body goes: stdout for 2xx, stderr otherwise, or -o.
    const route = async (r: Response, request: Request): Promise<Writable> => {
      if (b.opts.verbose && !verboseDone) {
        verboseDone = true;
        await err(verboseLines({ request, response: r, redirects: [], durationMs: 0 }, viaCurl ? [] : b.own));
      }
      finalStatus = r.status;
      const ok = r.status >= 200 && r.status < 300;
      out.code = ok ? 0 : Math.floor(r.status / 100) || EXIT.failure;
      const target = ok ? outputs.stdout : outputs.stderr;
      bodyOnStdout = ok;
      const headOnly = request.method === 'HEAD' || b.opts.head;
      if (headOnly || b.opts.include) target.write(Buffer.from(headerBlock(r), 'latin1'));
      if (headOnly) return new Writable({ write: (_c, _e, cb) => cb() });
      if (b.opts.output !== undefined && b.opts.output !== '-') {
        const file = path.resolve(input.cwd, b.opts.output);
        const ws = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
        await new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', (e) => reject(new EngineError('file-unreadable', `cannot write ${b.opts.output}: ${e.message}`, { hint: 'Check the file name after -o.' })));
        });
        return ws;
      }
      bodyOut = new Forward(target);
      const { type, charset } = parseContentType(headerValue(r.headers, 'content-type'));
      if (!b.flags.noHtml && (type === 'text/html' || type === 'application/xhtml+xml')) {
        return holdUpTo(bodyOut, RENDER_MAX, (body) => (body.length ? renderHtml(body, charset, input.pathEnv) : body));
      }
      return bodyOut;
    };
    let ex: Exchange;
    if (viaCurl) {
      const extraArgs = [...curlSessionArgs(b, timeoutMs), ...b.opts.unknown, ...(b.opts.compressed ? ['--compressed'] : [])];
      ex = await sendWithCurl(b.request, { extraArgs, bodyStream: b.bodyStream, cwd: input.cwd, pathEnv: input.pathEnv }, (r) => route(r, b.request));
    } else {
      const jar = await loadAll(b.cookieLoad, b.opts.junkSession);
      const before = toNetscape(await jarCookies(jar));
      const req: Request = { ...b.request, headers: [...b.own, ...b.request.headers] };
      ex = await send(req, {
        jar,
        timeoutMs,
        signal: input.signal,
        followRedirects: true,
        maxRedirects: b.opts.maxRedirs,
        insecure: b.opts.insecure,
        decode: b.opts.compressed,
        bodyStream: b.bodyStream,
        sink: (head) => route({ httpVersion: '1.1', status: head.status, statusText: head.statusText, headers: head.headers, body: Buffer.alloc(0) }, { ...b.request, url: head.url }),
      });
      const after = toNetscape(await jarCookies(jar));
      const jarWarning = b.cookieSave && (after !== before || b.opts.junkSession) ? await trySaveJar(jar, b.cookieSave) : null;
      if (jarWarning) err(`rest: warning: ${jarWarning}\n`);
    }
    // On a terminal, the output ends on its own line (bytes stay exact when piped).
    // Through the daemon stderr is a file shown after the call, so the newline must follow the
    // body on its own stream, or -v lines and the prompt would not start on a fresh line.
    if (bodyOut && bodyOut.bytes > 0 && bodyOut.last !== 0x0a) {
      if (bodyOnStdout && input.outputs?.tty) outputs.stdout.write('\n');
      else if (!bodyOnStdout && input.outputs?.ttyErr) await err('\n');
    }
    void ex;
    // Completion's path history: paths the server answered, 404 excepted (src/cli/history.ts).
    if (b.flags.pathsFile && finalStatus && finalStatus !== 404) {
      const w = rememberPath(b.flags.pathsFile, b.typedPath);
      if (w) await err(`rest: warning: ${w}\n`);
    }
    return out;
  } catch (e) {
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
    const usage = ['bad-option', 'bad-argument', 'invalid-url', 'unknown-variable', 'bad-environment', 'vars-cycle'].includes(ee.code);
    const curlExit = typeof ee.details?.curlExit === 'number' ? ee.details.curlExit : undefined;
    // A partial body on a terminal: the message starts on a fresh line.
    const fresh = bodyOut && bodyOut.bytes > 0 && bodyOut.last !== 0x0a ? '\n' : '';
    await err(`${fresh}rest: ${ee.message}${ee.hint ? ` (${ee.hint})` : ''}\n`);
    out.code = curlExit ?? (usage ? EXIT.usage : EXIT.failure);
    return out;
  }
}
