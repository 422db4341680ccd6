/**
 * A WebSocket request's message script, run on an open connection (connect.ts): JetBrains
 * HTTP Client's body as messages (`===` between them, `=== wait-for-server` to wait for one
 * message from the server; ../sheet/stream-messages.ts splits it), and when the request ends.
 *
 * When it ends (decided for `sheet run`, Emacs and the shell alike; docs/http-files.md,
 * "WebSocket"): JetBrains keeps a socket open until the user closes it in the Services window,
 * which a run that must finish cannot do. So a request ends at the first of: the server
 * closes; the script is done and the server has been quiet for {@link QUIET_MS} (each
 * received message starts the wait again); the per-request timeout; a cancel. We then close
 * with 1000. A `=== wait-for-server` waits at most the timeout,
 * or {@link WAIT_LIMIT_MS} when none is set, then the script goes on without sending the rest.
 */
import type { StreamStep as TextStep } from '../sheet/stream-messages.js';

/** A step of the script: a message to send (`bytes`: as a binary message, a `< file` read by ../session/websocket.ts) or a wait. */
export type StreamStep = (TextStep & { kind: 'send'; bytes?: Uint8Array }) | Extract<TextStep, { kind: 'wait' }>;
import type { WsClose, WsConnection } from './connect.js';

/** How long the server may stay quiet after the script before we close, ms. */
export const QUIET_MS = 1000;
/** How long one `=== wait-for-server` waits when no per-request timeout is set, ms. */
export const WAIT_LIMIT_MS = 30_000;

/** Why a scripted request ended; `unsubscribed`: its `.http` handlers unsubscribed and we closed (../session/websocket.ts); `completed`: the GraphQL server completed the operation (graphql.ts). */
export type WsEnd = 'server-closed' | 'quiet' | 'timeout' | 'cancelled' | 'unsubscribed' | 'completed';

export interface WsScriptOptions {
  /** The per-request time limit from the handshake on, ms; 0 or absent: none (the quiet period still ends it). */
  timeoutMs?: number;
  /** Quiet period after the script, ms (default {@link QUIET_MS}). */
  quietMs?: number;
  signal?: AbortSignal;
  /** Leave the connection open after the script (an editor's session, which the user closes): no quiet period, no close. */
  keepOpen?: boolean;
}

/** How the script went: the close, why it ended, the `wait-for-server` lines still waiting when it did. */
export interface WsScriptResult {
  /** The close; absent when `keepOpen` left the connection open. */
  close?: WsClose;
  ended: WsEnd;
  /** The line of the `=== wait-for-server` no server message answered (the script stopped there); empty when none. */
  unanswered: number[];
}

/**
 * Run `steps` on `c`: each message sent in order, each wait answered by one received message
 * not yet used by an earlier wait (a message that came before the wait counts), then the quiet
 * period. Never throws; never waits past the timeout.
 */
export async function runScript(c: WsConnection, steps: StreamStep[], o: WsScriptOptions = {}): Promise<WsScriptResult> {
  const start = Date.now();
  const deadline = o.timeoutMs ? start + o.timeoutMs : Infinity;
  const quietMs = o.quietMs ?? QUIET_MS;
  // onMessage gives the messages received so far first, so this counts them all.
  let received = 0;
  let lastActivity = Date.now();
  let closed: WsClose | undefined;
  let wake: (() => void) | undefined;
  c.onMessage(() => {
    received++;
    lastActivity = Date.now();
    wake?.();
  });
  void c.closed.then((x) => {
    closed = x;
    wake?.();
  });
  const onAbort = () => wake?.();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, Math.max(0, Math.min(ms, 2 ** 31 - 1)));
      function done() {
        clearTimeout(t);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const over = () => closed !== undefined || o.signal?.aborted === true || Date.now() >= deadline;
  let used = 0;
  const unanswered: number[] = [];
  for (const step of steps) {
    if (over()) {
      // The rest is not sent; the first wait left is the one that went unanswered.
      if (step.kind === 'wait') unanswered.push(step.line);
      if (step.kind === 'wait') break;
      continue;
    }
    if (step.kind === 'send') {
      if (step.bytes) c.sendBinary(step.bytes, step.line);
      else c.send(step.text, step.line);
      lastActivity = Date.now();
      continue;
    }
    const until = Math.min(deadline, Date.now() + WAIT_LIMIT_MS);
    while (received <= used && !over() && Date.now() < until) await sleep(until - Date.now());
    if (received > used) used++;
    else {
      unanswered.push(step.line);
      break;
    }
  }
  if (o.keepOpen && !over()) {
    o.signal?.removeEventListener('abort', onAbort);
    return { ended: 'quiet', unanswered };
  }
  while (!over()) {
    const left = Math.min(lastActivity + quietMs, deadline) - Date.now();
    if (left <= 0) break;
    await sleep(left);
  }
  o.signal?.removeEventListener('abort', onAbort);
  // A cancel first: it also closes the socket (connect.ts), which must not read as the server's close.
  const ended: WsEnd = o.signal?.aborted ? 'cancelled' : closed ? 'server-closed' : Date.now() >= deadline ? 'timeout' : 'quiet';
  if (!closed) c.close(1000, ended === 'cancelled' ? 'cancelled' : '');
  return { close: await c.closed, ended, unanswered };
}
