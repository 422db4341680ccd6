/**
 * The session's settings with every default filled in: what a front end gets when it sets
 * nothing (docs/protocol.md: the settings of `initialize` and `settings/set`; each value's
 * meaning is on `Settings` in types.ts), and the check of their shape where they come from
 * outside TypeScript.
 */
import { DEFAULT_MAX_PASSES } from '../resolve/substitute.js';
import { DEFAULT_THRESHOLD } from '../present/present.js';
import { MAX_REDIRECTS } from '../http/send.js';
import { EngineError } from '../errors.js';
import { checkTlsSettings, NO_CONNECTION_SETTINGS } from './tls-settings.js';
import type { Settings } from './types.js';

/** Settings with every default filled in. */
export const DEFAULT_SETTINGS: Required<Settings> = {
  maxPasses: DEFAULT_MAX_PASSES,
  threshold: DEFAULT_THRESHOLD,
  inhibitCookies: false,
  timeoutMs: 0,
  followRedirects: true,
  maxRedirects: MAX_REDIRECTS,
  cookieJarFile: null,
  userAgent: null,
  insecure: false,
  proxy: null,
  caFile: null,
  netrc: null,
  ...NO_CONNECTION_SETTINGS,
};

/** The type each setting must have (types.ts, `Settings`); null also allowed where listed. */
const SETTING_TYPES: Record<keyof Settings, [type: string, nullable: boolean]> = {
  maxPasses: ['number', false],
  threshold: ['number', true],
  inhibitCookies: ['boolean', false],
  timeoutMs: ['number', false],
  followRedirects: ['boolean', false],
  maxRedirects: ['number', false],
  cookieJarFile: ['string', true],
  userAgent: ['string', true],
  insecure: ['boolean', false],
  proxy: ['object', true],
  caFile: ['string', true],
  clientCert: ['object', true],
  clientCertificates: ['object', true],
  http2: ['boolean', false],
  unixSocket: ['string', true],
  netrc: ['string', true],
};

/** The fields of `Settings.proxy` (types.ts, `ProxySetting`), each a string. */
const PROXY_FIELDS = ['all', 'noProxy', 'http', 'https', 'noProxyRegexp'];

/**
 * Check settings' shape where they arrive from outside TypeScript (JSON-RPC params and
 * `lisp/eval` results, emacs/server.ts; a program's `HttpFileRunner` settings): an object (or
 * absent) whose known fields have their type (numbers finite and not negative), the connection
 * settings' shapes (tls-settings.ts); unknown fields are ignored, absent and null ones left as
 * they are.
 * @param where how the message names the settings, e.g. `params.settings`.
 * @throws EngineError `bad-argument` naming the field.
 */
export function checkSettings(s: unknown, where: string): Settings | undefined {
  if (s === undefined || s === null) return undefined;
  if (typeof s !== 'object' || Array.isArray(s)) {
    throw new EngineError('bad-argument', `${where} must be an object of settings, not ${JSON.stringify(s)}`, { hint: 'See Settings in docs/protocol.md.' });
  }
  const out: Record<string, unknown> = {};
  for (const [k, [type, nullable]] of Object.entries(SETTING_TYPES)) {
    const v = (s as Record<string, unknown>)[k];
    if (v === undefined || (v === null && !nullable)) continue;
    const ok = v === null || (typeof v === type && (type !== 'number' || (Number.isFinite(v) && (v as number) >= 0)));
    if (!ok) throw new EngineError('bad-argument', `${where}.${k} must be ${nullable ? `a ${type} or null` : `a ${type}`}${type === 'number' ? ' (not negative)' : ''}, not ${JSON.stringify(v)}`, { hint: 'See Settings in docs/protocol.md.' });
    const badProxy = k === 'proxy' && v !== null && (Array.isArray(v) || Object.entries(v as object).some(([f, x]) => PROXY_FIELDS.includes(f) && x !== undefined && typeof x !== 'string'));
    if (badProxy) throw new EngineError('bad-argument', `${where}.proxy must be an object of strings (${PROXY_FIELDS.join(', ')}) or null, not ${JSON.stringify(v)}`, { hint: 'See ProxySetting in docs/protocol.md.' });
    out[k] = v;
  }
  checkTlsSettings(out, where);
  return out as Settings;
}
