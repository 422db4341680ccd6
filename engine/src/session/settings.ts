/**
 * The session's settings with every default filled in: what a front end gets when it sets
 * nothing (docs/protocol.md: the settings of `initialize` and `settings/set`; each value's
 * meaning is on `Settings` in types.ts).
 */
import { DEFAULT_MAX_PASSES } from '../resolve/substitute.js';
import { DEFAULT_THRESHOLD } from '../present/present.js';
import { MAX_REDIRECTS } from '../http/send.js';
import { NO_CONNECTION_SETTINGS } from './tls-settings.js';
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
  insecure: false,
  proxy: null,
  caFile: null,
  netrc: null,
  ...NO_CONNECTION_SETTINGS,
};
