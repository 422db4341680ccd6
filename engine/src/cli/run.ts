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
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { CookieJar } from 'tough-cookie';
import { EngineError, isEngineError, toEngineError } from '../errors.js';
import { headerValue, type Exchange, type Header, type Request, type Response } from '../model.js';
import { send } from '../http/send.js';
import { jarCookies, loadJar, parseNetscape, toNetscape, trySaveJar } from '../http/cookies.js';
import { parseContentType } from '../present/present.js';
import { toCurl } from '../curl/to-curl.js';
import { curlArgv } from '../curl/argv.js';
import { emptyOptions, parseCurlOptions, takesNextWord, type CurlOptions } from '../curl/options.js';
import { splitShellWords } from '../curl/words.js';
import { appendQuery, buildUrl } from './url.js';

export const VERSION = '0.1.0';

/** Exit statuses besides 0 and the status class digits 1, 3, 4, 5 (docs/shell.md). */
export const EXIT = { usage: 2, transport: 6, failure: 8 } as const;

export interface RunInput {
  argv: string[];
  /** Reads the caller's standard input (only called when BODYSRC is `stdin` or `-d @-`). */
  readStdin: () => Promise<Uint8Array>;
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

/** Options of the verbs themselves, taken out before the curl options are parsed. */
interface RestFlags {
  raw: boolean;
  queries: string[];
  noHtml: boolean;
  dryRun: boolean;
}

function takeRestFlags(words: string[]): { flags: RestFlags; rest: string[] } {
  const flags: RestFlags = { raw: false, queries: [], noHtml: false, dryRun: false };
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-Q') flags.raw = true;
    else if (w === '-Z') flags.noHtml = true;
    else if (w === '--dry-run') flags.dryRun = true;
    else if (w === '-q') {
      if (i + 1 >= words.length) throw new EngineError('bad-option', '-q needs a query string', { hint: "Write -q 'name=value&other=x'." });
      flags.queries.push(words[++i]!);
    } else {
      rest.push(w);
      // The argument of a curl option is data, even when it looks like -Q or -Z.
      if (takesNextWord(w) && i + 1 < words.length) rest.push(words[++i]!);
    }
  }
  return { flags, rest };
}

/** Find an executable on `pathEnv`. */
export function which(cmd: string, pathEnv: string): string | undefined {
  for (const dir of pathEnv.split(':')) {
    if (!dir) continue;
    const f = path.join(dir, cmd);
    try {
      fs.accessSync(f, fs.constants.X_OK);
      if (fs.statSync(f).isFile()) return f;
    } catch {
      /* next */
    }
  }
  return undefined;
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
      return Buffer.from(v, 'utf8');
    case 'data':
    case 'ascii':
      // -d @file: curl drops carriage returns and newlines.
      return v.startsWith('@') ? Buffer.from((await readAt(v.slice(1))).toString('latin1').replace(/[\r\n]/g, ''), 'latin1') : Buffer.from(v, 'utf8');
    case 'binary':
    case 'json':
      return v.startsWith('@') ? readAt(v.slice(1)) : Buffer.from(v, 'utf8');
    case 'urlencode': {
      // content | =content | name=content | @file | name@file
      const enc = (b: Buffer | string) => encodeURIComponent(Buffer.isBuffer(b) ? b.toString('utf8') : b).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
      const eq = v.indexOf('=');
      const at = v.indexOf('@');
      if (eq === 0) return Buffer.from(enc(v.slice(1)));
      if (eq > 0 && (at < 0 || eq < at)) return Buffer.from(`${v.slice(0, eq)}=${enc(v.slice(eq + 1))}`);
      if (at === 0) return Buffer.from(enc(await readAt(v.slice(1))));
      if (at > 0) return Buffer.from(`${v.slice(0, at)}=${enc(await readAt(v.slice(at + 1)))}`);
      return Buffer.from(enc(v));
    }
  }
}

interface Built {
  request: Request;
  /** Headers the engine adds on its own (Accept, User-Agent) that curl would add itself. */
  own: Header[];
  opts: CurlOptions;
  flags: RestFlags;
  cookieLoad: string[];
  cookieSave: string;
  cookieFile: string;
}

/** Parse the argument vector and build the request (no I/O but reading body files). */
export async function buildRequest(input: RunInput): Promise<Built> {
  const a = input.argv;
  if (a.length < 7) throw new EngineError('bad-argument', 'run: too few arguments', { hint: 'This command is called by shell/rest; see docs/shell.md.' });
  const [method, base, p, bodySrc, bodyArg, cookieFile, nStr] = a as [string, string, string, string, string, string, string];
  const n = Number(nStr);
  if (!Number.isInteger(n) || n < 0 || a.length < 7 + n) throw new EngineError('bad-argument', `run: bad option line count ${JSON.stringify(nStr)}`);
  const words: string[] = [];
  for (const line of a.slice(7, 7 + n)) words.push(...splitShellWords(line));
  words.push(...a.slice(7 + n));

  const { flags, rest } = takeRestFlags(words);
  const opts = parseCurlOptions(rest, emptyOptions());

  let stdinCache: Promise<Uint8Array> | undefined;
  const stdin = () => (stdinCache ??= input.readStdin());

  let url = buildUrl({ base, path: p, raw: flags.raw, queries: flags.queries });
  const parts: Buffer[] = [];
  let hasBody = false;
  if (bodySrc === 'arg') {
    parts.push(Buffer.from(bodyArg, 'utf8'));
    hasBody = true;
  } else if (bodySrc === 'stdin' && opts.data.length === 0) {
    parts.push(Buffer.from(await stdin()));
    hasBody = true;
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
  const m = opts.method ?? (opts.head ? 'HEAD' : method);

  const headers: Header[] = [...opts.headers];
  const has = (name: string) => headers.some(([h]) => h.toLowerCase() === name) || opts.removeHeaders.includes(name);
  if (opts.user !== undefined && !has('authorization')) {
    const user = opts.user.includes(':') ? opts.user : `${opts.user}:`;
    headers.push(['Authorization', `Basic ${Buffer.from(user, 'utf8').toString('base64')}`]);
  }
  if (body !== undefined && !has('content-type')) headers.push(['Content-Type', json ? 'application/json' : 'application/x-www-form-urlencoded']);
  if (json && !has('accept')) headers.push(['Accept', 'application/json']);
  const own: Header[] = [];
  if (!has('user-agent')) own.push(['User-Agent', `rest/${VERSION}`]);
  if (!has('accept')) own.push(['Accept', '*/*']);
  if (opts.cookieStrings.length) headers.push(['Cookie', opts.cookieStrings.join('; ')]);

  const request: Request = { method: m, url, headers, body: body === undefined ? undefined : { kind: 'bytes', bytes: body } };
  const resolveFile = (f: string) => path.resolve(input.cwd, f);
  const cookieLoad = [cookieFile, ...opts.cookieFiles.map(resolveFile)].filter((f) => f !== '');
  const cookieSave = opts.cookieJar !== undefined ? resolveFile(opts.cookieJar) : cookieFile;
  return { request, own, opts, flags, cookieLoad, cookieSave, cookieFile };
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

/** text/html through `lynx -dump`, else `html2text`, else as is. */
export function renderHtml(body: Uint8Array, charset: string | undefined, pathEnv: string): Uint8Array {
  const env = { ...process.env, PATH: pathEnv };
  const lynx = which('lynx', pathEnv);
  if (lynx) {
    const cs = charset || 'utf-8';
    const r = spawnSync(lynx, ['-dump', '-stdin', '-force_html', `-assume_charset=${cs}`, '-display_charset=utf-8'], { input: body, env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  const h2t = which('html2text', pathEnv);
  if (h2t) {
    const r = spawnSync(h2t, [], { input: body, env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  return body;
}

/** Send through the real curl (an option the engine does not know is in `extra`). */
async function sendWithCurl(b: Built, input: RunInput, timeoutMs: number | undefined): Promise<Exchange> {
  const curl = which('curl', input.pathEnv);
  const url = b.request.url;
  if (!curl) throw new EngineError('network-error', `${url}: an option needs curl, and curl is not on PATH`, { hint: 'Install curl, or leave out the options the engine does not know.', details: { url } });
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'rest-curl-'));
  try {
    const bodyFile = path.join(dir, 'body');
    const hdr = path.join(dir, 'headers');
    const out = path.join(dir, 'out');
    if (b.request.body) await fs.promises.writeFile(bodyFile, b.request.body.kind === 'bytes' ? b.request.body.bytes : Buffer.from(b.request.body.text));
    const extra = ['-s', '-S', '-L', ...curlSessionArgs(b, timeoutMs), ...b.opts.unknown, '-D', hdr, '-o', out];
    const args = curlArgv(b.request, { bodyFile: b.request.body ? bodyFile : undefined, extraArgs: extra });
    const started = performance.now();
    const { code, stderr } = await new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn(curl, args, { cwd: input.cwd, env: { ...process.env, PATH: input.pathEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
      child.on('error', (e) => resolve({ code: 127, stderr: String(e) }));
      child.on('close', (c) => resolve({ code: c ?? 1, stderr: err }));
    });
    let headerText = '';
    try {
      headerText = await fs.promises.readFile(hdr, 'latin1');
    } catch {
      /* none */
    }
    // The last block of the header dump is the final response (after redirects and 1xx).
    const blocks = headerText.split(/\r?\n\r?\n/).filter((s) => /^HTTP\//.test(s));
    const last = blocks[blocks.length - 1];
    if (!last) {
      throw new EngineError(code === 28 ? 'timeout' : 'network-error', `${url}: ${stderr.trim() || `curl exited ${code}`}`, { details: { url, curlExit: code } });
    }
    const lines = last.split(/\r?\n/);
    const sm = /^HTTP\/(\S+)\s+(\d{3})\s*(.*)$/.exec(lines[0]!);
    const headers: Header[] = [];
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      if (i > 0) headers.push([l.slice(0, i), l.slice(i + 1).trim()]);
    }
    let body: Uint8Array = Buffer.alloc(0);
    try {
      body = await fs.promises.readFile(out);
    } catch {
      /* no body */
    }
    const response: Response = { httpVersion: sm?.[1] ?? '1.1', status: Number(sm?.[2] ?? 0), statusText: sm?.[3] ?? '', headers, body };
    return { request: b.request, response, redirects: [], durationMs: performance.now() - started };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The curl options that give curl the engine's cookie and transport behaviour. */
function curlSessionArgs(b: Built, timeoutMs: number | undefined): string[] {
  const args: string[] = [];
  for (const f of b.cookieLoad) args.push('-b', f);
  if (b.cookieSave) args.push('-c', b.cookieSave);
  if (b.opts.junkSession) args.push('-j');
  if (b.opts.maxRedirs !== undefined) args.push('--max-redirs', String(b.opts.maxRedirs));
  if (b.opts.insecure) args.push('-k');
  if (timeoutMs !== undefined) args.push('--max-time', String(timeoutMs / 1000));
  return args;
}

/**
 * Run one verb call.
 * @returns stdout/stderr bytes and the exit status: 0 for 2xx, the first status digit
 *   otherwise, 2 for a usage error, 6 for a transport failure, 8 for anything else.
 */
export async function run(input: RunInput): Promise<RunOutput> {
  const out: RunOutput = { stdout: [], stderr: [], code: 0 };
  const err = (s: string) => out.stderr.push(Buffer.from(s, 'utf8'));
  let built: Built | undefined;
  try {
    built = await buildRequest(input);
    const b = built;
    const timeoutMs = b.opts.maxTime !== undefined && b.opts.maxTime > 0 ? b.opts.maxTime * 1000 : undefined;
    if (b.flags.dryRun) {
      const extra = ['-s', '-L', ...curlSessionArgs(b, timeoutMs)];
      if (b.opts.include) extra.push('-i');
      if (b.opts.verbose) extra.push('-v');
      if (b.opts.output !== undefined) extra.push('-o', b.opts.output);
      extra.push(...b.opts.unknown);
      out.stdout.push(Buffer.from(toCurl(b.request, { extraArgs: extra }) + '\n', 'utf8'));
      return out;
    }
    let ex: Exchange;
    const viaCurl = b.opts.unknown.length > 0;
    if (viaCurl) {
      ex = await sendWithCurl(b, input, timeoutMs);
    } else {
      const jar = await loadAll(b.cookieLoad, b.opts.junkSession);
      const before = toNetscape(await jarCookies(jar));
      const req: Request = { ...b.request, headers: [...b.own, ...b.request.headers] };
      ex = await send(req, { jar, timeoutMs, followRedirects: true, maxRedirects: b.opts.maxRedirs ?? 50, insecure: b.opts.insecure });
      ex = { ...ex, request: { ...ex.request, headers: ex.request.headers.slice(b.own.length) } };
      const after = toNetscape(await jarCookies(jar));
      const jarWarning = b.cookieSave && (after !== before || b.opts.junkSession) ? await trySaveJar(jar, b.cookieSave) : null;
      if (jarWarning) err(`rest: warning: ${jarWarning}\n`);
    }
    const r = ex.response;
    if (b.opts.verbose) err(verboseLines(ex, viaCurl ? [] : b.own));
    const ok = r.status >= 200 && r.status < 300;
    out.code = ok ? 0 : Math.floor(r.status / 100) || EXIT.failure;
    const sink = ok ? out.stdout : out.stderr;
    const headOnly = ex.request.method === 'HEAD' || b.opts.head;
    if (headOnly) {
      sink.push(Buffer.from(headerBlock(r), 'latin1'));
      return out;
    }
    let body: Uint8Array = r.body;
    const { type, charset } = parseContentType(headerValue(r.headers, 'content-type'));
    if (!b.flags.noHtml && (type === 'text/html' || type === 'application/xhtml+xml') && body.length) body = renderHtml(body, charset, input.pathEnv);
    if (b.opts.include) sink.push(Buffer.from(headerBlock(r), 'latin1'));
    if (b.opts.output !== undefined && b.opts.output !== '-') {
      const file = path.resolve(input.cwd, b.opts.output);
      try {
        await fs.promises.writeFile(file, body);
      } catch (e) {
        throw new EngineError('file-unreadable', `cannot write ${b.opts.output}: ${(e as Error).message}`, { hint: 'Check the file name after -o.' });
      }
      return out;
    }
    sink.push(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    return out;
  } catch (e) {
    const ee = isEngineError(e) ? e : toEngineError(e);
    const transport = ['connection-refused', 'unknown-host', 'timeout', 'tls-error', 'network-error', 'too-many-redirects', 'cancelled'].includes(ee.code);
    const usage = ee.code === 'bad-option' || ee.code === 'bad-argument' || ee.code === 'invalid-url';
    err(`rest: ${ee.message}${ee.hint ? ` (${ee.hint})` : ''}\n`);
    out.code = transport ? EXIT.transport : usage ? EXIT.usage : EXIT.failure;
    return out;
  }
}
