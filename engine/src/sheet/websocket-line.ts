/**
 * The WebSocket request line (issue 40), one rule for both parsers (./parse.ts for sheets,
 * ../http-file/parse.ts for `.http` files): JetBrains HTTP Client's `WEBSOCKET URL` ("WebSocket
 * requests"), httpyac's and kulala.nvim's `WS URL`, httpyac's `WSS URL`. The handshake is a GET
 * (RFC 6455 section 4.1); the headers below the line are the handshake's, the body the messages
 * (./stream-messages.ts). Pure.
 */

/** The words a WebSocket request line starts with, in upper case as the peers write them. */
export const WEBSOCKET_METHODS: readonly string[] = ['WEBSOCKET', 'WS', 'WSS'];
const WEBSOCKET_SET = new Set(WEBSOCKET_METHODS);

/** Whether `word` (upper case) starts a WebSocket request line. */
export function isWebSocketMethod(word: string): boolean {
  return WEBSOCKET_SET.has(word);
}

/**
 * The URL of a WebSocket request line as the resolver reads it: a URL with no scheme gets
 * `ws://` (`wss://` after `WSS`, and `WSS ws://` becomes `wss://`); a URL starting with a
 * variable (`:base`, `{{host}}`) or a path is left as written for the resolver, which reads
 * `ws://`/`wss://` and `http://`/`https://` alike (../resolve/url-path.ts `websocketAsHttp`).
 * @param word the request line's word (`WEBSOCKET`, `WS`, `WSS`).
 * @param url the URL as written, trimmed.
 */
export function websocketUrl(word: string, url: string): string {
  const secure = word === 'WSS';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return secure ? url.replace(/^ws:\/\//i, 'wss://') : url;
  if (/^(?::|\/|\{\{)/.test(url)) return url;
  return `${secure ? 'wss' : 'ws'}://${url}`;
}
