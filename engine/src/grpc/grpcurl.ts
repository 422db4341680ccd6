/**
 * A `GRPC` request as a grpcurl command line (github.com/fullstorydev/grpcurl; kulala.nvim ran
 * grpcurl for its gRPC requests): C-c C-u and `sheet export --to grpcurl`. Pure.
 *
 * `grpcurl [-plaintext | -insecure | -cacert F] [-cert F -key F] [-import-path D]... [-proto F]...
 * [-H 'name: value']... [-max-time S] [-authority A] -d '{...}' host:port package.Service/Method`;
 * several messages (client streaming, bidirectional) go in one `-d` one after the other, as
 * grpcurl reads a stream of JSON messages (a `=== wait-for-server` has no grpcurl equivalent and
 * is left out). No proto: grpcurl asks the server by reflection, as the engine does.
 */
import path from 'node:path';
import type { Request } from '../model.js';
import type { GrpcNode } from '../sheet/ast.js';
import { shellQuote } from '../curl/to-curl.js';
import { splitStreamMessages } from '../sheet/stream-messages.js';
import { grpcTarget } from './target.js';

/** How the call connects, as the session resolved it (connection.ts). */
export interface GrpcurlConnection {
  insecure?: boolean;
  caFile?: string;
  cert?: string;
  key?: string;
  /** The per-request timeout in ms: `-max-time` in seconds. */
  timeoutMs?: number;
}

/**
 * The grpcurl command line of a resolved gRPC request.
 * @param baseDir where the request's relative proto paths start (grpcurl gets absolute ones).
 */
export function toGrpcurl(req: Request, g: GrpcNode, baseDir: string, c: GrpcurlConnection = {}): string {
  const t = grpcTarget(req.url, req.line);
  const words = ['grpcurl'];
  if (!t.tls) words.push('-plaintext');
  else if (c.insecure) words.push('-insecure');
  else if (c.caFile) words.push('-cacert', c.caFile);
  if (t.tls && c.cert) words.push('-cert', c.cert.replace(/\\:/g, ':'), ...(c.key ? ['-key', c.key] : []));
  const dirs = [...g.importPaths.map((p) => p.file), ...g.options.filter((o) => o.name === 'includeDirs').flatMap((o) => includeDirs(o.value))];
  for (const d of dirs) words.push('-import-path', path.resolve(baseDir, d));
  for (const p of g.protos) words.push('-proto', path.resolve(baseDir, p.file));
  for (const [n, v] of req.headers) if (n.toLowerCase() !== 'content-type') words.push('-H', `${n}: ${v}`);
  if (c.timeoutMs) words.push('-max-time', String(c.timeoutMs / 1000));
  if (g.authority) words.push('-authority', g.authority);
  const body = req.body ? (req.body.kind === 'text' ? req.body.text : Buffer.from(req.body.bytes).toString('utf8')) : '';
  const messages = splitStreamMessages(body).flatMap((s) => (s.kind === 'send' ? [s.text] : []));
  if (messages.length) words.push('-d', messages.join('\n'));
  words.push(t.address, `${t.service}/${t.method}`);
  return words.map(shellQuote).join(' ');
}

function includeDirs(v: string): string[] {
  try {
    const list: unknown = v.trim().startsWith('[') ? JSON.parse(v) : v.split(',');
    return Array.isArray(list) ? list.map((x) => String(x).trim()).filter((x) => x) : [];
  } catch {
    return [];
  }
}
