// A curl command and the sheet request `sheet import-curl` makes of it, both sent to one raw
// capture server on 127.0.0.1 (test/fixtures/http/capture-server.mjs): real curl run by real
// bash, and `sheet import-curl` + `sheet run` (the CLI, engine/bin/sheet). What is compared,
// and what is not (transport details that are no part of the request):
// - the request line, byte for byte;
// - the header multiset, names lower-cased, without User-Agent (each client names itself),
//   Connection (keep-alive is the transport's), Expect (curl's 100-continue handshake, which
//   undici does not do) and Content-Length / Transfer-Encoding (framing: the body bytes are
//   compared after de-chunking); curl's default `Accept: */*` equals no Accept (RFC 9110
//   section 12.5.1: "no Accept header field implies that the user agent will accept any media
//   type"); a Cookie header is compared pair by pair (curl joins -b values with ";", RFC 6265 "; ");
// - the body bytes;
// - a multipart boundary (curl picks a random one per run, so two curl runs differ there too)
//   is read as the word BOUNDARY, in the Content-Type and the body alike.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { cutShellTail } from '../../engine/src/curl/shell-tail.js';
import { root, runSheet, tempDir } from './helpers.js';

/** The corpus of real curl commands (test/fixtures/curl-corpus/commands.txt) and its files. */
export const CORPUS_DIR = path.join(root, 'test/fixtures/curl-corpus');


export interface Captured {
  requestLine: string;
  headers: [string, string][];
  body: Buffer;
}

/** One command through both clients. */
export interface WireResult {
  curl?: Captured;
  sheet?: Captured;
  /** The exit status of `sheet import-curl`, and of `sheet run` when the import printed a request. */
  importExit: number;
  runExit?: number;
  importErr: string;
  sheetText: string;
  /** Differences of the normalised requests, empty when both sent the same. */
  differences: string[];
}

const IGNORED = new Set(['user-agent', 'connection', 'expect', 'content-length', 'transfer-encoding']);

/** The header multiset as compared (see the file comment), sorted. */
export function normalHeaders(headers: [string, string][]): string[] {
  const out: string[] = [];
  for (const [n, v] of headers) {
    const name = n.toLowerCase();
    if (IGNORED.has(name)) continue;
    if (name === 'accept' && v === '*/*') continue;
    if (name === 'cookie') for (const pair of v.split(/;\s*/)) out.push(`cookie: ${pair}`);
    else out.push(`${name}: ${v}`);
  }
  return out.sort();
}

/** `c` with its multipart boundary (Content-Type `boundary=`) replaced by BOUNDARY everywhere. */
export function withoutBoundary(c: Captured): Captured {
  const type = c.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1] ?? '';
  const b = /^multipart\/.*;\s*boundary=("?)([^";]+)\1/i.exec(type)?.[2];
  if (!b) return c;
  const body = Buffer.from(c.body.toString('latin1').split(b).join('BOUNDARY'), 'latin1');
  return { ...c, headers: c.headers.map(([n, v]) => [n, v.split(b).join('BOUNDARY')]), body };
}

/** What differs between two captured requests, as readable lines. */
export function compare(curl: Captured | undefined, sheet: Captured | undefined): string[] {
  if (!curl || !sheet) return [`curl ${curl ? 'sent' : 'did not send'} a request, the sheet ${sheet ? 'sent' : 'did not send'} one`];
  const a = withoutBoundary(curl);
  const b = withoutBoundary(sheet);
  const out: string[] = [];
  if (a.requestLine !== b.requestLine) out.push(`request line: curl ${JSON.stringify(a.requestLine)}, sheet ${JSON.stringify(b.requestLine)}`);
  const ha = normalHeaders(a.headers);
  const hb = normalHeaders(b.headers);
  if (JSON.stringify(ha) !== JSON.stringify(hb)) out.push(`headers: curl ${JSON.stringify(ha)}, sheet ${JSON.stringify(hb)}`);
  if (!a.body.equals(b.body)) out.push(`body: curl ${JSON.stringify(a.body.toString('latin1').slice(0, 200))}, sheet ${JSON.stringify(b.body.toString('latin1').slice(0, 200))}`);
  return out;
}

/** What differs between the requests curl sent and the sheet's, in order (URL globs make several). */
export function compareAll(curl: Captured[], sheet: Captured[]): string[] {
  if (curl.length === 0 && sheet.length === 0) return ['neither curl nor the sheet sent a request'];
  const out = curl.length === sheet.length || !curl.length || !sheet.length ? [] : [`curl sent ${curl.length} requests, the sheet ${sheet.length}`];
  for (let i = 0; i < Math.max(curl.length, sheet.length); i++) out.push(...compare(curl[i], sheet[i]).map((d) => (curl.length > 1 ? `request ${i + 1}: ${d}` : d)));
  return out;
}

/** Point every http(s) URL of a command at `base` (http://127.0.0.1:PORT), keeping userinfo, path and query. */
export function rewriteHost(command: string, base: string): string {
  const hostPort = base.replace(/^http:\/\//, '');
  return command
    .replace(/\bhttps?:\/\/([^/\s'"?#@]*@)?(\[[^\]\s]*\]|[^/\s'"?#\\]+)/g, (_, user: string | undefined) => base.replace('://', `://${user ?? ''}`))
    // A URL without a scheme (curl reads http://): a host with a dot, or localhost, before a /.
    .replace(/(^|[\s'"])((?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?)(?=\/)/gim, (_, pre: string) => `${pre}${hostPort}`);
}

/** A capture server for a batch of commands; `run` sends one command both ways. */
export async function wireBench(files: Record<string, string> = {}) {
  const capture = await startCapture();
  const dir = tempDir('curl-wire-');
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  const base = `http://127.0.0.1:${capture.port}`;
  const take = () => capture.requests.splice(0) as Captured[];

  async function run(original: string, env: NodeJS.ProcessEnv = {}): Promise<WireResult> {
    const command = rewriteHost(original, base);
    take();
    // Only the curl part runs: a pasted `| jq .` is the import's to drop, not the test's to run.
    // A `$ ` prompt is the docs', not bash's.
    const curlPart = cutShellTail(command.trim()).command.replace(/^\$\s+/, '');
    const bashEnv = { ...process.env, ...env };
    await new Promise<void>((resolve) => execFile('bash', ['-c', `${curlPart.replace(/[\s\\]+$/, '')} -s -o /dev/null --max-time 10`], { cwd: dir, env: bashEnv }, () => resolve()));
    const curlAll = take();
    const curl = curlAll[0];
    const imported = await runSheet(['import-curl', command], { cwd: dir, env });
    const result: WireResult = { curl, importExit: imported.code, importErr: imported.err, sheetText: imported.out, differences: [] };
    // A command curl refuses (exit 3, a bad URL glob) and the import refuses sends nothing both ways.
    if (imported.code === 2) return { ...result, differences: curlAll.length === 0 ? [] : ['not imported'] };
    fs.writeFileSync(path.join(dir, 'imported.sheet'), imported.out);
    const ran = await runSheet(['run', 'imported.sheet', '--timeout', '10'], { cwd: dir, env });
    const sheetAll = take();
    return { ...result, sheet: sheetAll[0], runExit: ran.code, differences: compareAll(curlAll, sheetAll) };
  }
  const close = async () => {
    await capture.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  /** Run `command` in bash in the bench's directory; what the capture server received. */
  async function viaBash(command: string, env: NodeJS.ProcessEnv = {}): Promise<Captured | undefined> {
    take();
    await new Promise<void>((resolve) => execFile('bash', ['-c', `${command.replace(/[\s\\]+$/, '')} -s -o /dev/null --max-time 10`], { cwd: dir, env: { ...process.env, ...env } }, () => resolve()));
    return take()[0];
  }
  return { run, viaBash, close, dir, base };
}

/** The corpus entries: source URL and command. */
export function readCorpus(): { source: string; command: string }[] {
  const text = fs.readFileSync(path.join(CORPUS_DIR, 'commands.txt'), 'utf8');
  return text
    .split(/^---$/m)
    .map((block) => block.replace(/^#.*\n/gm, ''))
    .map((block) => {
      const m = /^\s*source: (.*)\n([\s\S]*)$/.exec(block);
      if (!m) throw new Error(`corpus block without a source line: ${block}`);
      return { source: m[1]!.trim(), command: m[2]!.trim() };
    });
}
