/**
 * `sheet/completions`: the names an editor offers while the user types (issue 25 item 2):
 * variables (the sheet's declarations, the session's overrides; in `.http` files also the
 * chosen environment's names and the system variables), methods, header names and common
 * header values, hook names. A pure look-up: no Lisp, no network, no substitution, so it
 * answers in a few milliseconds on a big sheet (the parse is the session's cached one).
 * Documented in docs/protocol.md.
 */
import path from 'node:path';
import { loadEnvironment } from '../http-file/environment.js';
import { HOOK_TYPES } from '../hooks/run.js';
import { HTTP_FILE_REQUEST_METHODS } from '../http-file/parse.js';
import type { Sheet } from '../sheet/ast.js';
import { METHODS } from '../sheet/parse.js';
import type { CompletionsParams, CompletionsResult, CompletionVariable } from './protocol.js';

/**
 * Request header names, from the IANA HTTP Field Name Registry
 * (https://www.iana.org/assignments/http-fields/, permanent entries a client sends; response-only
 * fields left out), and a few de facto ones every API uses (`X-Request-ID`, `X-API-Key`, ...).
 */
export const HEADER_NAMES = [
  'A-IM', 'Accept', 'Accept-CH', 'Accept-Charset', 'Accept-Encoding', 'Accept-Language', 'Accept-Patch', 'Accept-Post',
  'Access-Control-Request-Headers', 'Access-Control-Request-Method', 'ALPN', 'Authorization', 'Cache-Control',
  'Cache-Status', 'CDN-Cache-Control', 'Connection', 'Content-Digest', 'Content-Disposition', 'Content-Encoding',
  'Content-Language', 'Content-Length', 'Content-Location', 'Content-Range', 'Content-Type', 'Cookie', 'Date', 'Depth',
  'Destination', 'Early-Data', 'Expect', 'Forwarded', 'From', 'Host', 'HTTP2-Settings', 'If', 'If-Match',
  'If-Modified-Since', 'If-None-Match', 'If-Range', 'If-Schedule-Tag-Match', 'If-Unmodified-Since', 'Idempotency-Key',
  'Max-Forwards', 'Origin', 'Overwrite', 'Prefer', 'Priority', 'Proxy-Authorization', 'Range', 'Referer',
  'Repr-Digest', 'Sec-Fetch-Dest', 'Sec-Fetch-Mode', 'Sec-Fetch-Site', 'Sec-Fetch-User', 'Sec-Purpose',
  'Signature', 'Signature-Input', 'SLUG', 'TE', 'Timeout', 'Traceparent', 'Tracestate', 'Trailer',
  'Transfer-Encoding', 'Upgrade', 'Upgrade-Insecure-Requests', 'User-Agent', 'Via', 'Want-Content-Digest',
  'Want-Repr-Digest', 'X-API-Key', 'X-Correlation-ID', 'X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Proto',
  'X-HTTP-Method-Override', 'X-Request-ID', 'X-Requested-With',
];

const MEDIA_TYPES = [
  'application/json', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data',
  'text/plain', 'text/html', 'text/csv', 'application/graphql', 'application/octet-stream',
  'application/problem+json', 'application/merge-patch+json', 'application/json-patch+json',
  'application/ld+json', 'application/vnd.api+json', 'application/yaml', 'application/pdf',
  'application/x-ndjson', 'image/png', 'image/jpeg', 'text/event-stream', '*/*',
];

/** Common values by lower-case header name. */
export const HEADER_VALUES: Record<string, string[]> = {
  accept: MEDIA_TYPES,
  'content-type': MEDIA_TYPES.filter((t) => t !== '*/*').flatMap((t) => (t.startsWith('text/') || t.endsWith('json') ? [t, `${t}; charset=utf-8`] : [t])),
  'accept-encoding': ['gzip, deflate, br', 'gzip', 'deflate', 'br', 'zstd', 'identity'],
  'accept-language': ['en-US,en;q=0.9', 'en', 'de', 'fr', '*'],
  authorization: ['Bearer ', 'Basic '],
  'cache-control': ['no-cache', 'no-store', 'max-age=0', 'only-if-cached'],
  connection: ['close', 'keep-alive'],
  'content-encoding': ['gzip', 'deflate', 'br', 'zstd'],
  expect: ['100-continue'],
  prefer: ['return=minimal', 'return=representation', 'respond-async', 'wait=10'],
  'x-requested-with': ['XMLHttpRequest'],
  'x-http-method-override': [...METHODS],
  te: ['trailers'],
};

/**
 * The system variables of `.http` files (`{{$name}}`, engine/src/resolve/http-vars.ts and
 * http-random.ts), each with the arguments it takes.
 */
export const SYSTEM_VARIABLES: { name: string; args: string }[] = [
  { name: '$guid', args: '' },
  { name: '$uuid', args: '' },
  { name: '$randomInt', args: 'min max' },
  { name: '$timestamp', args: '[offset unit]' },
  { name: '$isoTimestamp', args: '' },
  { name: '$date', args: '' },
  { name: '$datetime', args: 'rfc1123|iso8601|"FORMAT" [offset unit]' },
  { name: '$localDatetime', args: 'rfc1123|iso8601|"FORMAT" [offset unit]' },
  { name: '$processEnv', args: 'NAME' },
  { name: '$dotenv', args: 'NAME' },
  // JetBrains' token auth (engine/src/tokens/): the id of a `Security.Auth` entry.
  { name: '$auth.token', args: '("id")' },
  { name: '$auth.idToken', args: '("id")' },
  ...['alphabetic(n)', 'alphanumeric(n)', 'hexadecimal(n)', 'numeric(n)', 'integer(from, to)', 'float(from, to)', 'email', 'uuid'].map((r) => {
    const k = r.indexOf('(');
    return { name: `$random.${k < 0 ? r : r.slice(0, k)}`, args: k < 0 ? '' : r.slice(k) };
  }),
];

/**
 * The completion candidates for `sheet` (parsed from `p.text` as `p.path` says). Variables
 * come once each, first source winning: declarations above and at `p.line` (the last one),
 * the session's overrides, then (`.http`) the chosen environment's names and the system
 * variables. A bad environment file is not an error here: its names are left out.
 * @param overrides the session's overrides, by name with the colon.
 */
export function completionsFor(sheet: Sheet, p: CompletionsParams, overrides: ReadonlyMap<string, string>): CompletionsResult {
  const http = sheet.syntax === 'http';
  const variables: CompletionVariable[] = [];
  const seen = new Set<string>();
  const add = (v: CompletionVariable) => {
    if (seen.has(v.name)) return;
    seen.add(v.name);
    variables.push(v);
  };
  // In a sheet a declaration is visible below it; in `.http` files file variables are file-wide.
  for (const d of [...sheet.vars].reverse()) if (http || d.line <= p.line) add({ name: d.name, source: 'declared', line: d.line });
  for (const name of overrides.keys()) add({ name: http ? name.replace(/^:/, '') : name, source: 'override' });
  if (http) {
    try {
      const env = loadEnvironment(p.path ?? path.join(process.cwd(), 'untitled.http'), p.env || undefined);
      for (const name of Object.keys(env.variables)) add({ name, source: 'environment' });
    } catch {
      // A bad or unknown environment: sheet/send reports it; completion goes on without it.
    }
    for (const s of SYSTEM_VARIABLES) add({ name: s.name, source: 'system', ...(s.args ? { args: s.args } : {}) });
  }
  return {
    syntax: http ? 'http' : 'sheet',
    variables,
    methods: http ? [...HTTP_FILE_REQUEST_METHODS] : [...METHODS],
    headers: HEADER_NAMES,
    headerValues: HEADER_VALUES,
    hooks: http ? [] : HOOK_TYPES.map((h) => ({ name: h.name, args: h.args })),
  };
}
