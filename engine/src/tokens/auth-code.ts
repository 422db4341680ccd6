/**
 * The browser half of the Authorization Code grant (RFC 6749 4.1, PKCE RFC 7636 S256; RFC
 * 8252 7.3, a loopback redirect): a listener on the Redirect URL's 127.0.0.1 port (0 or none:
 * a free one), the authorization URL opened in the user's browser (the command in `BROWSER`,
 * as Python's webbrowser and many CLIs read it; else `xdg-open`; else only printed), the
 * redirect's `state` checked, a time limit, and the listener closed on every way out (code,
 * error, time limit, cancel). The code is then exchanged by grants.ts (oauth4webapi).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import * as oauth from 'oauth4webapi';
import { EngineError } from '../errors.js';
import { describeOrigin, type AuthOrigin } from './config.js';
import { which } from '../which.js';

/** How long the user has to sign in, ms (kulala.nvim waits 5 minutes too). */
export const SIGN_IN_TIMEOUT_MS = 300_000;

/** What the browser sign-in gave: the redirect's parameters (checked) and the redirect URI used. */
export interface AuthorizationResult {
  callback: URLSearchParams;
  redirectUri: string;
  verifier?: string;
}

export interface BrowserSignIn {
  authUrl: string;
  tokenUrl: string;
  clientId: string;
  redirectUrl: string;
  scope?: string;
  /** Parameters for the authorization request (`Custom Request Parameters` with `Use` Everywhere / In Auth Request). */
  authParameters: [string, string][];
  /** `S256` (default), `plain`, or none (`PKCE: false`). */
  pkce?: 'S256' | 'plain';
  /** A fixed code verifier (`PKCE: {"Code Verifier": ...}`). */
  verifier?: string;
}

/** Open `url` with `BROWSER` (words; `%s` stands for the URL, else it is appended), else `xdg-open`. @returns false when neither could be started. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const words = env.BROWSER?.trim() ? env.BROWSER.trim().split(/\s+/) : which('xdg-open', env.PATH ?? '') ? ['xdg-open'] : [];
  if (!words.length) return false;
  const argv = words.some((w) => w.includes('%s')) ? words.map((w) => w.replaceAll('%s', url)) : [...words, url];
  try {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: 'ignore', detached: true, env });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

function fail(origin: AuthOrigin, reason: string, what: string, hint: string): EngineError {
  return new EngineError('token-request-failed', `${describeOrigin(origin)}: ${what}; the request was not sent`, { line: origin.line, hint, details: { auth: origin.id, reason } });
}

/**
 * Run the browser sign-in of `c`.
 * @param notify shows the user a line (the URL to open when no browser could be started).
 * @param openUrl opens the authorization URL in the front end's browser instead of `BROWSER` /
 *   `xdg-open` (false: it could not).
 * @throws EngineError `bad-auth-config` (a Redirect URL that is not a loopback http URL, a busy
 *   port), `token-request-failed` (reason `state-mismatch`, `authorization-error` with the
 *   provider's `error`, `timeout`), `cancelled`.
 */
export async function signIn(c: BrowserSignIn, origin: AuthOrigin, o: { signal?: AbortSignal; timeoutMs?: number; env?: NodeJS.ProcessEnv; notify?: (line: string) => void; openUrl?: (url: string) => boolean } = {}): Promise<AuthorizationResult> {
  const redirect = new URL(c.redirectUrl);
  if (redirect.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(redirect.hostname)) {
    throw new EngineError('bad-auth-config', `${describeOrigin(origin)}: Redirect URL ${c.redirectUrl} is not a loopback http:// URL, so the engine cannot receive the code`, { line: origin.line, hint: 'Register and write a Redirect URL such as http://127.0.0.1:8765/callback (RFC 8252 7.3); port 0 or none takes a free port.', details: { auth: origin.id } });
  }
  const state = oauth.generateRandomState();
  const verifier = c.pkce ? (c.verifier ?? oauth.generateRandomCodeVerifier()) : undefined;
  const server = http.createServer();
  await new Promise<void>((ok, ko) => {
    server.once('error', (e: NodeJS.ErrnoException) => ko(new EngineError('bad-auth-config', `${describeOrigin(origin)}: cannot listen on 127.0.0.1:${redirect.port || 0} for the Redirect URL (${e.code ?? e.message})`, { line: origin.line, hint: 'Another program uses that port: stop it, or choose another port in Redirect URL (and register it).', details: { auth: origin.id } })));
    server.listen(Number(redirect.port || 0), '127.0.0.1', ok);
  });
  try {
    const port = (server.address() as { port: number }).port;
    const redirectUri = `http://${redirect.hostname}:${port}${redirect.pathname}`;
    const auth = new URL(c.authUrl);
    const q = auth.searchParams;
    q.set('response_type', 'code');
    q.set('client_id', c.clientId);
    q.set('redirect_uri', redirectUri);
    q.set('state', state);
    if (c.scope) q.set('scope', c.scope);
    if (verifier) {
      q.set('code_challenge', c.pkce === 'S256' ? await oauth.calculatePKCECodeChallenge(verifier) : verifier);
      q.set('code_challenge_method', c.pkce!);
    }
    for (const [k, v] of c.authParameters) q.append(k, v);
    const as: oauth.AuthorizationServer = { issuer: new URL(c.tokenUrl).origin, authorization_endpoint: c.authUrl, token_endpoint: c.tokenUrl };
    const received = new Promise<URLSearchParams>((ok, ko) => {
      server.on('request', (req, res) => {
        const url = new URL(req.url ?? '/', redirectUri);
        if (url.pathname !== redirect.pathname) {
          res.writeHead(404).end();
          return;
        }
        const done = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
        if (url.searchParams.get('state') !== state) {
          done(400, 'The state of this redirect does not match the sign-in that sheet started; nothing was sent.');
          ko(fail(origin, 'state-mismatch', 'the redirect came back with a wrong state (another sign-in, or a forged redirect)', 'Sign in again from the request; close other sign-in tabs.'));
          return;
        }
        const error = url.searchParams.get('error');
        if (error) {
          done(400, `Sign-in failed: ${error}. You can close this tab.`);
          const desc = url.searchParams.get('error_description');
          ko(fail(origin, 'authorization-error', `the sign-in failed: ${error}${desc ? `: ${desc}` : ''}`, 'Check Client ID, Redirect URL (registered at the provider) and Scope.'));
          return;
        }
        done(200, 'Signed in. You can close this tab and go back to your requests.');
        ok(url.searchParams);
      });
    });
    const limit = o.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, ko) => {
      timer = setTimeout(() => ko(fail(origin, 'timeout', `no sign-in within ${Math.round(limit / 1000)} s`, `Open the URL and sign in within the time, or send the request again.`)), limit);
    });
    const cancelled = new Promise<never>((_, ko) => {
      if (o.signal?.aborted) ko(new EngineError('cancelled', 'the sign-in was cancelled', { line: origin.line }));
      o.signal?.addEventListener('abort', () => ko(new EngineError('cancelled', 'the sign-in was cancelled', { line: origin.line })), { once: true });
    });
    // A front end with a browser of its own (sheet-mode: `browse-url`) opens it; else BROWSER.
    if (!(o.openUrl ? o.openUrl(auth.href) : openBrowser(auth.href, o.env))) o.notify?.(`Open this URL to sign in (${origin.id}): ${auth.href}`);
    try {
      const params = await Promise.race([received, timedOut, cancelled]);
      return { callback: oauth.validateAuthResponse(as, { client_id: c.clientId }, params, state), redirectUri, ...(verifier ? { verifier } : {}) };
    } finally {
      clearTimeout(timer);
    }
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
