/**
 * GraphQL over WebSocket (issue 40): the `graphql-transport-ws` subprotocol (the GraphQL over
 * WebSocket protocol of the `graphql-ws` library, enisdenjo/graphql-ws PROTOCOL.md), what httpyac
 * speaks for a GraphQL request to a `ws://` URL and Apollo, Hasura, GraphQL Yoga serve. On an
 * open connection (connect.ts, asked with that subprotocol):
 *
 *   -> {"type":"connection_init","payload":{}}      <- {"type":"connection_ack"}
 *   -> {"id":"1","type":"subscribe","payload":{"query",...}}
 *   <- {"id":"1","type":"next","payload":{"data":...}}   (each result: the request's events)
 *   <- {"id":"1","type":"complete"} | {"id":"1","type":"error","payload":[GraphQLError]}
 *   <- {"type":"ping"} -> {"type":"pong"}
 *
 * When it ends (decided as for a message script, script.ts): the server's `complete` or `error`
 * (we then close with 1000), the server's close, the per-request timeout or a cancel (we send
 * `complete` for the operation, then close with 1000), or, with no timeout set, no message
 * for {@link WAIT_LIMIT_MS} (a subscription the server keeps silent would hold a `sheet run`
 * forever; the user sets a timeout to wait longer).
 */
import type { WsClose, WsConnection, WsMessage } from './connect.js';
import { WAIT_LIMIT_MS, type WsEnd } from './script.js';

/** The subprotocol asked for in the handshake. */
export const GRAPHQL_WS_PROTOCOL = 'graphql-transport-ws';

/** How the operation went. */
export interface GraphQlWsResult {
  close: WsClose;
  /** `completed`: the server completed the operation (or answered `error`). */
  ended: WsEnd;
  /** The `payload` of each `next` message, in order (the execution results). */
  results: unknown[];
  /** What went wrong, in words: the server's `error` messages, an unanswered `connection_init`, a message that is not the protocol's. */
  errors: string[];
}

/** The operation id we use (one operation per request). */
const ID = '1';

/** A received message read as the protocol's, or undefined (binary, not JSON, no `type`). */
export function graphQlMessage(m: WsMessage): { type: string; id?: string; payload?: unknown } | undefined {
  if (m.direction !== 'received' || m.binary) return undefined;
  try {
    const v = JSON.parse(m.text) as { type?: unknown };
    return v && typeof v === 'object' && typeof v.type === 'string' ? (v as { type: string }) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Run one GraphQL operation on `c`: `payload` is the `subscribe` message's (the request's
 * body, http-graphql.ts's JSON). Never throws; never waits past the timeout.
 */
export async function runGraphQl(c: WsConnection, payload: string, o: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<GraphQlWsResult> {
  const deadline = o.timeoutMs ? Date.now() + o.timeoutMs : Infinity;
  const results: unknown[] = [];
  const errors: string[] = [];
  let acked = false;
  let done = false;
  let lastActivity = Date.now();
  let closed: WsClose | undefined;
  let wake: (() => void) | undefined;
  let sub: unknown;
  try {
    sub = JSON.parse(payload);
  } catch {
    sub = { query: payload };
  }
  if (c.protocol !== GRAPHQL_WS_PROTOCOL) errors.push(`the server did not agree to the ${GRAPHQL_WS_PROTOCOL} subprotocol (it chose ${c.protocol ? `"${c.protocol}"` : 'none'})`);
  c.onMessage((m) => {
    lastActivity = Date.now();
    const g = graphQlMessage(m);
    if (!g) errors.push(`a message that is not ${GRAPHQL_WS_PROTOCOL}'s: ${m.text.slice(0, 200)}`);
    else if (g.type === 'connection_ack' && !acked) {
      acked = true;
      c.send(JSON.stringify({ id: ID, type: 'subscribe', payload: sub }));
    } else if (g.type === 'ping') c.send(JSON.stringify({ type: 'pong' }));
    else if (g.type === 'next' && g.id === ID) results.push(g.payload);
    else if (g.type === 'error' && g.id === ID) {
      const list = Array.isArray(g.payload) ? g.payload : [g.payload];
      errors.push(`the server answered with errors: ${list.map((e) => (e && typeof e === 'object' && 'message' in e ? String((e as { message: unknown }).message) : JSON.stringify(e))).join('; ')}`);
      done = true;
    } else if (g.type === 'complete' && g.id === ID) done = true;
    wake?.();
  });
  void c.closed.then((x) => {
    closed = x;
    wake?.();
  });
  const onAbort = () => wake?.();
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (errors.length === 0) c.send(JSON.stringify({ type: 'connection_init', payload: {} }));
  const over = () => done || closed !== undefined || o.signal?.aborted === true || errors.length > 0 && !acked || Date.now() >= deadline || (!o.timeoutMs && Date.now() - lastActivity >= WAIT_LIMIT_MS);
  while (!over()) {
    const until = Math.min(deadline, o.timeoutMs ? Infinity : lastActivity + WAIT_LIMIT_MS);
    await new Promise<void>((resolve) => {
      const t = setTimeout(fire, Math.max(0, Math.min(until - Date.now(), 2 ** 31 - 1)));
      function fire() {
        clearTimeout(t);
        wake = undefined;
        resolve();
      }
      wake = fire;
    });
  }
  o.signal?.removeEventListener('abort', onAbort);
  if (!acked && !closed && !o.signal?.aborted && errors.length === 0) errors.push('the server did not answer connection_init with connection_ack');
  const ended: WsEnd = o.signal?.aborted ? 'cancelled' : done ? 'completed' : closed ? 'server-closed' : Date.now() >= deadline ? 'timeout' : 'quiet';
  if (!closed) {
    // We end an operation the server did not: tell it (the protocol's `complete` from the client).
    if (acked && !done) c.send(JSON.stringify({ id: ID, type: 'complete' }));
    c.close(1000, ended === 'cancelled' ? 'cancelled' : '');
  }
  return { close: await c.closed, ended, results, errors };
}
