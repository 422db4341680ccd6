/**
 * Device Authorization (RFC 8628) through oauth4webapi: ask the `Device Auth URL` for a device
 * code, show the user the verification URI and the user code (the caller's `notify`), then
 * poll the token endpoint every `interval` seconds (default 5, RFC 8628 3.5), 5 more after a
 * `slow_down`, going on while it answers `authorization_pending`, until a token, a refusal
 * (`access_denied`, `expired_token`) or the device code's `expires_in`.
 */
import * as oauth from 'oauth4webapi';
import { EngineError } from '../errors.js';
import { describeOrigin, secretsOf, type AuthOrigin, type OAuth2Config } from './config.js';
import { maskSecrets } from '../mask.js';
import { clientAuth, fetchOption, tokenSetOf, type TokenSet } from './grants.js';
import type { FetchLike } from '../http/send.js';

/** The `token-request-failed` error, the client secret masked in all of it (an `error_description` may echo it). */
function fail(origin: AuthOrigin, c: OAuth2Config, reason: string, what: string, hint: string, extra: Record<string, unknown> = {}): EngineError {
  const m = maskSecrets({ message: `${describeOrigin(origin)}: ${what}; the request was not sent`, hint, details: { auth: origin.id, reason, ...extra } }, secretsOf(c));
  return new EngineError('token-request-failed', m.message, { line: origin.line, hint: m.hint, details: m.details });
}

/** Wait `ms`, or throw `cancelled` when `signal` aborts first. */
function sleep(ms: number, origin: AuthOrigin, signal?: AbortSignal): Promise<void> {
  return new Promise((ok, ko) => {
    const t = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      ok();
    }
    function abort() {
      clearTimeout(t);
      ko(new EngineError('cancelled', 'the device sign-in was cancelled', { line: origin.line }));
    }
    if (signal?.aborted) abort();
    else signal?.addEventListener('abort', abort, { once: true });
  });
}

/**
 * Run the device flow of `c` (`c.deviceAuthUrl` set).
 * @param notify shows the user the verification URI and the user code.
 * @param now the clock, ms since the epoch.
 * @throws EngineError `token-request-failed` (reasons `unreachable`, `refused` with the
 *   endpoint's `error`, `expired`), `cancelled`.
 */
export async function deviceFlow(c: OAuth2Config, origin: AuthOrigin, o: { notify: (line: string) => void; signal?: AbortSignal; now?: () => number; fetch?: FetchLike }): Promise<TokenSet> {
  const as: oauth.AuthorizationServer = { issuer: new URL(c.tokenUrl).origin, token_endpoint: c.tokenUrl, device_authorization_endpoint: c.deviceAuthUrl! };
  const client: oauth.Client = { client_id: c.clientId };
  const insecure = c.tokenUrl.startsWith('http:') || c.deviceAuthUrl!.startsWith('http:') ? { [oauth.allowInsecureRequests]: true } : {};
  const options = { ...insecure, ...fetchOption(o.fetch), ...(o.signal ? { signal: o.signal } : {}) };
  const params = new URLSearchParams(c.authParameters ?? []);
  if (c.scope) params.set('scope', c.scope);
  const now = o.now ?? Date.now;
  let device: oauth.DeviceAuthorizationResponse;
  try {
    device = await oauth.processDeviceAuthorizationResponse(as, client, await oauth.deviceAuthorizationRequest(as, client, clientAuth(c), params, options));
  } catch (e) {
    if (e instanceof EngineError) throw e; // the connection settings' own (a bad proxy, CA file), before anything was sent
    if (o.signal?.aborted) throw new EngineError('cancelled', 'the device sign-in was cancelled', { line: origin.line });
    if (e instanceof oauth.ResponseBodyError) throw fail(origin, c, 'refused', `the device authorization endpoint answered ${e.status} ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`, 'Check Device Auth URL, Client ID and Scope.', { error: e.error });
    throw fail(origin, c, 'unreachable', `cannot use the device authorization endpoint ${c.deviceAuthUrl} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`, 'Is the identity provider running, and is Device Auth URL right?');
  }
  o.notify(`To sign in (${origin.id}), open ${device.verification_uri_complete ?? device.verification_uri} and enter the code ${device.user_code}`);
  const until = now() + device.expires_in * 1000;
  let interval = (device.interval ?? 5) * 1000;
  for (;;) {
    await sleep(interval, origin, o.signal);
    if (now() > until) throw fail(origin, c, 'expired', `the device code expired (${device.expires_in} s) before the sign-in`, 'Send the request again and enter the new code in time.');
    try {
      const r = await oauth.processDeviceCodeResponse(as, client, await oauth.deviceCodeGrantRequest(as, client, clientAuth(c), device.device_code, options));
      return tokenSetOf(r, now());
    } catch (e) {
      if (o.signal?.aborted) throw new EngineError('cancelled', 'the device sign-in was cancelled', { line: origin.line });
      if (!(e instanceof oauth.ResponseBodyError)) throw fail(origin, c, 'unreachable', `cannot poll the token endpoint ${c.tokenUrl} (${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`, 'Is the identity provider running?');
      if (e.error === 'authorization_pending') continue;
      if (e.error === 'slow_down') {
        interval += 5000;
        continue;
      }
      throw fail(origin, c, 'refused', `the sign-in ended: ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`, e.error === 'access_denied' ? 'The sign-in was refused at the provider; send the request again to retry.' : 'Send the request again for a new code.', { error: e.error });
    }
  }
}
