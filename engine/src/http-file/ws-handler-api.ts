/**
 * JetBrains' `response.body.onEachMessage((message, unsubscribe, output) => ...)` for the
 * response handler of a WebSocket request (issue 40; JetBrains HTTP Client reference,
 * "TextStreamResponse" / "WebSocket"): script text added to the handler sandbox's prelude
 * (handlers.ts). The minimum for WebSocket requests, in its own file while HTTP streams get
 * their own API: the handler runs after the session has ended (the sandbox runs once per
 * response), so `onEachMessage` goes over the received messages in order, a JSON message
 * passed parsed (as JetBrains does); `unsubscribe()` stops the iteration; `onFinish`, the
 * second argument, is called after the last one; `output(text)` cannot send any more and is
 * logged as `output (not sent, the connection is closed): TEXT`.
 */

/**
 * The prelude's `__wsBody(messages)`: the handler's `response.body` for a WebSocket request,
 * given the received messages' texts. Runs inside the sandbox (plain ES2020).
 */
export const WS_BODY_PRELUDE = `
const __wsBody = (messages) => Object.freeze({
  onEachMessage(subscriber, onFinish) {
    let stop = false;
    const unsubscribe = () => { stop = true; };
    const output = (text) => { __out.logs.push('output (not sent, the connection is closed): ' + __str(text)); };
    for (const text of messages) {
      let message = text;
      try { message = JSON.parse(text); } catch (e) { /* not JSON: the text */ }
      subscriber(message, unsubscribe, output);
      if (stop) break;
    }
    if (typeof onFinish === 'function') onFinish();
  },
  onEachLine(subscriber, onFinish) {
    let stop = false;
    const unsubscribe = () => { stop = true; };
    for (const text of messages) {
      subscriber(text, unsubscribe);
      if (stop) break;
    }
    if (typeof onFinish === 'function') onFinish();
  },
  toString() { return messages.join('\\n'); },
});
`;
