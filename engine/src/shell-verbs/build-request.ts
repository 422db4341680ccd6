/**
 * The request of one shell verb call, built from its argument vector (docs/shell.md): the
 * per-host option lines split shell-style, rest's own flags, `rest --env` substitution, curl's
 * options (`../curl/options.ts`) and curl's rules for bodies (-d and friends joined with `&`,
 * -G, -T, a lone --data-binary @file streamed), the headers curl would add, and the cookie
 * files to load and save. No I/O but reading body files; `run.ts` sends what this builds.
 *
 * Argument vector (after `run`):
 *   METHOD BASE PATH BODYSRC BODY COOKIEFILE NLINES LINE... OPTION...
 * BODYSRC is `none`, `arg` (BODY is the body) or `stdin` (stdin is not a terminal: it is the
 * body unless an option gives one, -d, --data-*, --json, -T, -F, --form-string; curl/rules.ts).
 * NLINES option lines of the per-host files (the `rest` file's first, then the host's) are
 * split shell-style; their words go in front of the OPTIONs (defaults, then the request's own).
 */
import { buffer } from 'node:stream/consumers';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { EngineError } from '../errors.js';
import type { Header, Request } from '../model.js';
import type { BodyStream } from '../http/send.js';
import { argBytes } from './bytes.js';
import { targetAsWritten, unsendableTarget } from '../url/as-written.js';
import { basicAuthHeader, cookieHeader, dataContentType, dataFile, fileDataBytes, getQueryData, hasHeader, otherOptionsGiveBody, urlCredentials, urlencodeData } from '../curl/rules.js';
import { emptyOptions, parseCurlOptions, type CurlOptions } from '../curl/options.js';
import { splitShellWords } from '../curl/words.js';
import { appendQuery, buildUrl } from './url.js';
import { VERSION } from '../version.js';
import { takeRestFlags, type RestFlags } from './flags.js';
import { envContextFor, shellEnvironment, substituteEnv } from './env.js';
import { callerPath } from './caller-files.js';

/** What building the request reads of a verb call (`RunInput` in run.ts adds the rest). */
export interface BuildInput {
  /** The argument vector as byte strings (src/shell-verbs/bytes.ts): raw bytes survive. */
  argv: string[];
  /** Reads the caller's whole standard input (`-d @-` joined with other data). */
  readStdin: () => Promise<Uint8Array>;
  /**
   * The caller's standard input as a stream, for a body sent as it is read (BODYSRC `stdin`,
   * `-T -`, a lone `--data-binary @-`); `size` when it is a regular file. Default: from readStdin.
   */
  stdinStream?: () => { stream: Readable; size?: number };
  /** The caller's working directory, for relative file names (-o, -d @file, -b, -c). */
  cwd: string;
  /**
   * The calling shell's PID when another process (the daemon) runs the call: file names such
   * as `/dev/fd/63` (`<(...)`) then name the caller's open files (caller-files.ts).
   */
  callerPid?: string;
}

/** curl's rules for one -d/--data-* value. */
async function dataValue(part: CurlOptions['data'][number], input: BuildInput, stdin: () => Promise<Uint8Array>): Promise<Buffer> {
  const readAt = async (name: string): Promise<Buffer> => {
    if (name === '-') return Buffer.from(await stdin());
    try {
      return await fs.promises.readFile(path.resolve(input.cwd, name));
    } catch (e) {
      throw new EngineError('file-unreadable', `cannot read ${name}: ${(e as Error).message}`, { hint: 'Check the file name after @.' });
    }
  };
  // curl's rules for data read from a file (curl/rules.ts): the one home of -d @file's stripping.
  const file = dataFile(part);
  if (file !== undefined) return Buffer.from(fileDataBytes(part, await readAt(file)));
  return part.kind === 'urlencode' ? Buffer.from(urlencodeData(part.value)!) : argBytes(part.value);
}

/** The call's request and what goes with it: what run.ts sends, or prints for --dry-run / --sheet. */
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
  /** The Cookie header of -b NAME=VALUE (the same object as in `request.headers`), if any. */
  cookies?: Header;
  /** The tokens `{{$auth.token("id")}}` put in the request (`rest --env`): masked in -v (run.ts). */
  secrets: string[];
}

/** Parse the argument vector and build the request (no I/O but reading body files). */
export async function buildRequest(input: BuildInput): Promise<Built> {
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
  const secrets: string[] = [];
  if (flags.env !== undefined) {
    // rest --env NAME: {{...}} in the path, queries, body argument and option words (src/shell-verbs/env.ts).
    const ctx = await envContextFor(shellEnvironment(input.cwd, flags.env), [p, bodySrc === 'arg' ? bodyArg : '', ...flags.queries, ...rest]);
    const sub = (t: string) => substituteEnv(t, ctx);
    for (const t of ctx.authTokens?.values() ?? []) secrets.push(t.token, ...(t.idToken ? [t.idToken] : []));
    p = sub(p);
    if (bodySrc === 'arg') bodyArg = sub(bodyArg);
    flags.queries = flags.queries.map(sub);
    rest = rest.map(sub);
  }
  const opts = callerFiles(parseCurlOptions(rest, emptyOptions()), input.callerPid);

  let stdinCache: Promise<Uint8Array> | undefined;
  const stdin = () => (stdinCache ??= input.readStdin());

  let url = buildUrl({ base, path: p, raw: flags.raw, queries: flags.queries });
  // --http2 on http://: curl offers an h2c upgrade (Upgrade: h2c, HTTP2-Settings), which undici
  // does not; the real curl sends it (the fallback), so the request is curl's own.
  if (opts.http2 && /^http:/i.test(url)) {
    opts.http2 = false;
    opts.unknown.push('--http2');
  }
  const parts: Buffer[] = [];
  let hasBody = false;
  let bodyStream: BodyStream | undefined;
  let streamPath = '';
  const fileStream = (name: string): BodyStream => {
    const f = path.resolve(input.cwd, name);
    let size: number | undefined;
    try {
      const st = fs.statSync(f);
      // A pipe (`<(...)`, a FIFO) streams without a length, read once, as curl sends it.
      if (st.isFIFO()) size = undefined;
      else if (!st.isFile()) throw new Error('not a regular file');
      else size = st.size;
    } catch (e) {
      throw new EngineError('file-unreadable', `cannot read ${name}: ${(e as Error).message}`, { hint: 'Check the file name.' });
    }
    streamPath = name;
    return { open: () => fs.createReadStream(f, { highWaterMark: 256 * 1024 }), length: size, reopen: size !== undefined };
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
  } else if (bodySrc === 'stdin' && opts.data.length === 0 && !otherOptionsGiveBody(opts.unknown)) {
    // stdin is the body only when no option gives one (-d, --data-*, --json, -T, -F, ...).
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
    url = appendQuery(url, getQueryData(body.toString('utf8')));
    body = undefined;
  }
  // The verb is the method: -T is only the body (`PATCH /x -T f` is curl's `-X PATCH -T f`).
  const m = opts.method ?? (opts.head ? 'HEAD' : method);

  const headers: Header[] = [...opts.headers];
  const has = (name: string) => hasHeader(headers, name) || opts.removeHeaders.includes(name);
  // --digest, --aws-sigv4 and .netrc: send()'s authenticator uses -u and the URL's credentials
  // (http/auth.ts; run.ts hands it the options), so neither becomes a Basic header here.
  const authLater = !!opts.digest || opts.awsSigv4 !== undefined || opts.netrc !== undefined || opts.netrcFile !== undefined;
  if (opts.user !== undefined && !has('authorization') && !authLater) headers.push(basicAuthHeader(opts.user));
  // http://user:password@host in the base URL: Basic auth as curl sends it, when neither -u
  // nor -H gives one (then send() only takes them out of the URL).
  const cred = urlCredentials(url);
  if (cred.user !== undefined && !has('authorization') && opts.user === undefined && !authLater) {
    url = cred.url;
    headers.push(basicAuthHeader(cred.user));
  }
  const formType = bodyStream !== undefined && opts.uploadFile === undefined;
  if ((body !== undefined || formType) && !has('content-type')) headers.push(['Content-Type', dataContentType(json)]);
  if (json && !has('accept')) headers.push(['Accept', 'application/json']);
  if (opts.compressed && !has('accept-encoding')) headers.push(['Accept-Encoding', 'deflate, gzip, br']);
  const own: Header[] = [];
  if (!has('user-agent')) own.push(['User-Agent', `rest/${VERSION}`]);
  if (!has('accept')) own.push(['Accept', '*/*']);
  // -b NAME=VALUE: a Cookie header in what is printed (--dry-run, --sheet, history); sent after
  // the jar's cookies in one header, as curl does (run.ts hands it to send as `cookies`).
  const cookies = opts.cookieStrings.length ? cookieHeader(opts.cookieStrings) : undefined;
  if (cookies) headers.push(cookies);

  // -Q: the path as written goes out byte for byte (url/as-written.ts), unless a blank or a
  // control character makes that impossible (then it is percent-encoded as before).
  const target = flags.raw ? targetAsWritten(url) : undefined;
  const request: Request = {
    method: m,
    url,
    ...(target !== undefined && !unsendableTarget(target) ? { target } : {}),
    headers,
    body: bodyStream ? { kind: 'bytes', bytes: Buffer.alloc(0), path: streamPath } : body === undefined ? undefined : { kind: 'bytes', bytes: body },
  };
  const resolveFile = (f: string) => path.resolve(input.cwd, f);
  const cookieLoad = [cookieFile, ...opts.cookieFiles.map(resolveFile)].filter((f) => f !== '');
  const cookieSave = opts.cookieJar !== undefined ? resolveFile(opts.cookieJar) : cookieFile;
  return { request, bodyStream, own, opts, flags, cookieLoad, cookieSave, cookieFile, typedPath: pArg, cookies, secrets };
}

/** The request with a file body's name made absolute (a sheet is read from anywhere). */
export function fileBodyAbsolute(r: Request, cwd: string): Request {
  const body = r.body;
  if (body?.kind !== 'bytes' || !body.path || body.path === '-') return r;
  return { ...r, body: { ...body, path: path.resolve(cwd, body.path) } };
}

/** The request with a body piped in read whole, for --dry-run and --sheet (nothing is sent). */
export async function withPipedBody(b: Built): Promise<Request> {
  if (!b.bodyStream || b.request.body?.kind !== 'bytes' || b.request.body.path !== '-') return b.request;
  return { ...b.request, body: { kind: 'bytes', bytes: await buffer(b.bodyStream.open()) } };
}

/**
 * The file names among curl's options (`-T`, `-d @`, `-o`, `-b`, `-c`, `--netrc-file`,
 * `--cacert`, `--cert`, `--key`) as the caller meant them ({@link callerPath}): unchanged
 * without a caller PID (the direct mode opens its own `/dev/fd/N`).
 */
export function callerFiles(opts: CurlOptions, pid: string | undefined): CurlOptions {
  if (!pid) return opts;
  const p = (f: string | undefined) => (f === undefined ? undefined : callerPath(f, pid));
  const data = opts.data.map((part) => {
    const f = dataFile(part);
    const to = f === undefined ? f : callerPath(f, pid);
    return to === f ? part : { ...part, value: part.value.slice(0, part.value.length - f!.length) + to };
  });
  return { ...opts, data, uploadFile: p(opts.uploadFile), output: p(opts.output), cookieFiles: opts.cookieFiles.map((f) => callerPath(f, pid)), cookieJar: p(opts.cookieJar), netrcFile: p(opts.netrcFile), cacert: p(opts.cacert), cert: p(opts.cert), key: p(opts.key) };
}
