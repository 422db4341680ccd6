/**
 * The token methods of the Emacs protocol (issue 39 item 4; docs/protocol.md, "Token auth"):
 * `sheet/authList`, `sheet/authLogin`, `sheet/authLogout` over the same code as `sheet auth`
 * (session/auth-admin.ts) and the session's own token store, so a logout also empties the
 * memory the next `sheet/send` reads. The sign-in of an interactive grant reaches the user
 * through `auth/openUrl` (Emacs: `browse-url`) and `auth/notify` (the user code), which
 * `sheet/send` uses too.
 */
import path from 'node:path';
import type { CancellationToken, MessageConnection, ResponseError } from 'vscode-jsonrpc';
import { EngineError } from '../errors.js';
import { authList, authLogin, authLogout, authTarget } from '../session/auth-admin.js';
import type { Session } from '../session/session.js';
import * as P from './protocol.js';

/** How server.ts wraps a handler: errors become the protocol's ResponseError. */
type Guard = <A extends unknown[], R>(fn: (...a: A) => Promise<R> | R) => (...a: A) => Promise<R | ResponseError<P.EngineErrorData>>;

/**
 * Check `sheet/auth*` params: `path` an absolute file or directory name, `env` and `id` strings.
 * @throws EngineError `bad-argument`
 */
function checkAuthParams(p: P.AuthParams, needsId: boolean): P.AuthParams {
  if (!p || typeof p !== 'object' || typeof p.path !== 'string' || !path.isAbsolute(p.path)) {
    throw new EngineError('bad-argument', `params.path must be the absolute name of a .http file or a directory, not ${JSON.stringify(p?.path)}`, { hint: 'See docs/protocol.md, "Token auth".' });
  }
  for (const k of ['env', 'id'] as const) {
    if (p[k] !== undefined && p[k] !== null && typeof p[k] !== 'string') throw new EngineError('bad-argument', `params.${k} must be a string, not ${JSON.stringify(p[k])}`, { hint: 'See docs/protocol.md, "Token auth".' });
  }
  if (needsId && !p.id) throw new EngineError('bad-argument', 'params.id must name the auth configuration to sign in with', { hint: 'sheet/authList lists them.' });
  return p;
}

/**
 * Register the token methods on `conn`, and make `session`'s sign-ins speak to this client.
 * @param signalOf turns a request's cancellation token into an AbortSignal (`$/cancelRequest`
 *   ends a sign-in: the listener is closed, the polling stops).
 */
export function serveAuth(conn: MessageConnection, session: Session, guard: Guard, signalOf: (t: CancellationToken) => AbortSignal): void {
  session.auth.notify = (message) => void conn.sendNotification(P.AuthNotify, { message });
  session.auth.openUrl = (url) => {
    void conn.sendNotification(P.AuthOpenUrl, { url });
    return true;
  };
  const envOf = (p: P.AuthParams) => (typeof p.env === 'string' && p.env ? p.env : undefined);
  conn.onRequest(P.SheetAuthList, guard((p: P.AuthParams) => {
    const t = authTarget(checkAuthParams(p, false).path, envOf(p));
    return { ...(t.auth.environment ? { environment: t.auth.environment } : {}), entries: authList(t) };
  }));
  conn.onRequest(P.SheetAuthLogin, guard(async (p: P.AuthParams, token: CancellationToken) => {
    const t = authTarget(checkAuthParams(p, true).path, envOf(p));
    const a = session.auth;
    const got = await authLogin(a.store, t, p.id!, { interactive: a.interactive, signal: signalOf(token), ...(a.notify ? { notify: a.notify } : {}), ...(a.openUrl ? { openUrl: a.openUrl } : {}) });
    return { id: p.id!, ...(t.auth.environment ? { environment: t.auth.environment } : {}), ...got };
  }));
  conn.onRequest(P.SheetAuthLogout, guard((p: P.AuthParams) => {
    const t = authTarget(checkAuthParams(p, false).path, envOf(p));
    return { removed: authLogout(session.auth.store, t, p.id || undefined), ...(t.auth.environment ? { environment: t.auth.environment } : {}) };
  }));
}
