/**
 * HTTP Digest access authentication, the client's side (RFC 7616; curl's `--digest`): the
 * server's `WWW-Authenticate: Digest ...` challenge -> the `Authorization: Digest ...` answer.
 * Algorithms MD5, SHA-256, SHA-512-256 and their `-sess` forms, `qop=auth` (or none, RFC
 * 2069's form). The challenge is read by the npm package `auth-header` (RFC 7235's
 * auth-param syntax: tokens, quoted strings with escapes); the hashes are node:crypto's.
 * Weighed and not taken: `digest-header` (MD5 only), `http-auth-utils` (refuses a challenge
 * with a parameter it does not list, such as RFC 7616's `userhash` or `charset`, and quotes
 * `qop` and `nc`, which RFC 7616 writes bare), `digest-fetch` (bound to fetch).
 */
/// <reference path="./auth-header.d.ts" />
import { createHash, randomBytes } from 'node:crypto';
import { parse as parseAuthHeader } from 'auth-header';
import type { Header } from '../model.js';

/** A Digest challenge the engine can answer. */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  /** As the server wrote it (`MD5` when absent). */
  algorithm: string;
  /** `auth` when the server offers it; undefined: RFC 2069's form without qop. */
  qop?: 'auth';
  stale: boolean;
}

/** RFC 7616 section 3.3's algorithm names -> node:crypto's hash names. */
const HASHES: Record<string, string> = { 'MD5': 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256' };

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * The first Digest challenge among `headers`' `WWW-Authenticate` fields that the engine can
 * answer (a known algorithm; `qop` absent or offering `auth`), in the server's order (RFC 7616
 * section 3.7: the client uses the first it supports).
 */
export function digestChallenge(headers: Header[]): DigestChallenge | undefined {
  for (const [n, v] of headers) {
    if (n.toLowerCase() !== 'www-authenticate' || !/^\s*digest\s/i.test(v)) continue;
    let params: Record<string, string | string[]>;
    try {
      params = parseAuthHeader(v.trim()).params;
    } catch {
      continue;
    }
    const realm = first(params.realm);
    const nonce = first(params.nonce);
    const algorithm = first(params.algorithm) ?? 'MD5';
    if (realm === undefined || nonce === undefined) continue;
    if (!HASHES[algorithm.replace(/-sess$/i, '').toUpperCase()]) continue;
    const qops = (first(params.qop) ?? '').split(',').map((q) => q.trim().toLowerCase()).filter((q) => q !== '');
    if (qops.length > 0 && !qops.includes('auth')) continue;
    const opaque = first(params.opaque);
    return { realm, nonce, algorithm, stale: (first(params.stale) ?? '').toLowerCase() === 'true', ...(opaque !== undefined ? { opaque } : {}), ...(qops.length ? { qop: 'auth' as const } : {}) };
  }
  return undefined;
}

/** A quoted-string (RFC 9110 5.6.4): `"` and `\` escaped. */
const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

/**
 * The `Authorization` value answering challenge `c` for one request (RFC 7616 section 3.4).
 * @param uri the request target as sent (path and query).
 * @param nc the number of requests answered with this nonce so far, 1 for the first.
 * @param cnonce the client nonce; default 16 random bytes in hex.
 */
export function digestAuthorization(c: DigestChallenge, user: string, password: string, method: string, uri: string, nc: number, cnonce = randomBytes(16).toString('hex')): string {
  const sess = /-sess$/i.test(c.algorithm);
  const hashName = HASHES[c.algorithm.replace(/-sess$/i, '').toUpperCase()]!;
  const H = (s: string) => createHash(hashName).update(s, 'utf8').digest('hex');
  const ncText = nc.toString(16).padStart(8, '0');
  let ha1 = H(`${user}:${c.realm}:${password}`);
  if (sess) ha1 = H(`${ha1}:${c.nonce}:${cnonce}`);
  const ha2 = H(`${method}:${uri}`);
  const response = c.qop ? H(`${ha1}:${c.nonce}:${ncText}:${cnonce}:${c.qop}:${ha2}`) : H(`${ha1}:${c.nonce}:${ha2}`);
  const parts = [`username=${quoted(user)}`, `realm=${quoted(c.realm)}`, `nonce=${quoted(c.nonce)}`, `uri=${quoted(uri)}`];
  if (c.qop) parts.push(`cnonce=${quoted(cnonce)}`, `nc=${ncText}`, `qop=${c.qop}`);
  parts.push(`response=${quoted(response)}`);
  if (c.opaque !== undefined) parts.push(`opaque=${quoted(c.opaque)}`);
  parts.push(`algorithm=${c.algorithm}`);
  return `Digest ${parts.join(', ')}`;
}
