/**
 * JetBrains' streaming handler API (issue 40; JetBrains HTTP Client reference,
 * "TextStreamResponse" / "WebSocket"), the `response.body` of a response that arrives over
 * time: an SSE or NDJSON stream, or a WebSocket request's received messages. Script text added
 * to the handler sandbox's prelude (handlers.ts); the script is kept open and fed the events or
 * messages as they arrive (handler-sandbox.ts `openInSandbox`, handlers.ts `openHandlers`).
 *
 * - `response.body.onEachLine((line, unsubscribe) => ...)`: each event's data (an NDJSON line,
 *   an SSE event's data, a WebSocket message's text).
 * - `response.body.onEachMessage((message, unsubscribe, output) => ...)`: the same, parsed when
 *   it is JSON. `output(text)`: on a WebSocket, sends `text` (a non-string as JSON) to the
 *   server at once, as JetBrains does; on an HTTP stream, which cannot be answered, it adds a
 *   `client.log` line.
 * - `unsubscribe()`: no more calls; once no script still listens the request ends at once (an
 *   HTTP stream is cut, a WebSocket closed with 1000).
 * - the second argument, `onFinish()`: called once when the response has ended (or the script
 *   unsubscribed), before the handler's result is read: where a test over all the messages goes.
 */

/**
 * The prelude's part: `__streamBody`, and the functions the sandbox worker calls: `__feed(items)`
 * (each `{line, json}`: handlers.ts's `StreamItem`, the message parsed here when `json`; returns `unsubscribed`, `subscribed` or `none`), `__drain()` (the
 * texts `output` sent since the last call, as JSON) and `__finish()`. Runs inside the sandbox
 * (plain ES2020); `__out`, `__str` and `__data` are the prelude's (handlers.ts).
 */
export const STREAM_BODY_PRELUDE = `
const __subs = { lines: [], messages: [], finish: [], stopped: false, finished: false, sends: [] };
const __unsubscribe = () => { __subs.stopped = true; };
const __output = __data.response && __data.response.websocket
  ? (...args) => { __subs.sends.push(args.map(__str).join(' ')); }
  : (...args) => { __out.logs.push(args.map(__str).join(' ')); };
const __message = (it) => {
  if (!it.json) return it.line;
  try { return JSON.parse(it.line); } catch (_) { return it.line; }
};
function __feed(items) {
  for (const it of items) {
    for (const f of __subs.lines) { if (!__subs.stopped) f(it.line, __unsubscribe); }
    if (!__subs.messages.length || __subs.stopped) continue;
    const message = __message(it);
    for (const f of __subs.messages) { if (!__subs.stopped) f(message, __unsubscribe, __output); }
  }
  return __subs.stopped ? 'unsubscribed' : __subs.lines.length + __subs.messages.length ? 'subscribed' : 'none';
}
function __drain() { return JSON.stringify(__subs.sends.splice(0)); }
function __finish() {
  if (__subs.finished) return;
  __subs.finished = true;
  for (const f of __subs.finish) f();
}
const __subscribe = (list, f, onFinish, what) => {
  if (typeof f !== 'function') throw new TypeError(what);
  list.push(f);
  if (onFinish !== undefined) {
    if (typeof onFinish !== 'function') throw new TypeError('the second argument (onFinish) must be a function');
    __subs.finish.push(onFinish);
  }
};
const __streamBody = Object.freeze({
  onEachLine(f, onFinish) { __subscribe(__subs.lines, f, onFinish, 'onEachLine wants a function (line, unsubscribe)'); },
  onEachMessage(f, onFinish) { __subscribe(__subs.messages, f, onFinish, 'onEachMessage wants a function (message, unsubscribe, output)'); },
});
`;
