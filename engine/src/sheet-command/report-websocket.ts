/**
 * A WebSocket request in `sheet run`'s reports (issue 40): its messages both ways with their
 * times, the close and why it ended (`SendOutput.websocket`, ../session/websocket.ts), kept
 * bounded for the JSON report (at most {@link KEEP_MESSAGES} messages, each text cut at the
 * report's body limit) and written as a section of the HTML report.
 */
import type { WebSocketRecord } from '../session/websocket.js';

/** The most messages a report keeps of one request. */
export const KEEP_MESSAGES = 1000;

/** What a report keeps of a WebSocket request: the record, bounded; `messagesCut` how many were left out. */
export type WebSocketReport = WebSocketRecord & { messagesCut?: number };

/**
 * `w` bounded for a report.
 * @param keepChars the longest message text kept (characters); a longer one is cut and marked `cut`.
 */
export function keptWebSocket(w: WebSocketRecord, keepChars: number): WebSocketReport {
  const messages = w.messages.slice(0, KEEP_MESSAGES).map((m) => (m.text.length > keepChars ? { ...m, text: m.text.slice(0, keepChars), cut: true } : m));
  return { ...w, messages, ...(w.messages.length > KEEP_MESSAGES ? { messagesCut: w.messages.length - KEEP_MESSAGES } : {}) };
}

/** How the request ended, in words: `closed by the server with 4001 (topic not allowed)`. */
export function endedText(w: WebSocketRecord): string {
  if (w.ended === 'refused') return 'the handshake was refused';
  const c = w.close;
  const code = c ? ` with ${c.code}${c.reason ? ` (${c.reason})` : ''}` : '';
  const why: Record<string, string> = { 'server-closed': 'closed by the server', quiet: 'closed by us after the script, the server quiet', timeout: 'closed by us at the timeout', cancelled: 'cancelled', unsubscribed: 'closed by us when the handlers unsubscribed', completed: 'closed by us when the GraphQL server completed the operation' };
  return `${why[w.ended] ?? w.ended}${code}`;
}

/** The HTML report's "Messages" section for a WebSocket request (`esc` escapes HTML). */
export function websocketHtml(w: WebSocketReport, esc: (s: string) => string): string {
  const rows = w.messages
    .map((m) => `<tr class="${m.direction}"><td>+${m.atMs} ms</td><td>${m.direction === 'sent' ? '&rarr; sent' : '&larr; received'}</td><td><pre>${esc(m.binary ? `(binary, ${m.bytes} bytes, base64) ${m.text}` : m.text)}</pre></td></tr>`)
    .join('');
  const table = rows ? `<table><tr><th>time</th><th></th><th>message</th></tr>${rows}</table>` : '<p class="muted">(no messages)</p>';
  const cut = w.messagesCut ? `<p class="muted">(${w.messagesCut} more messages not kept)</p>` : '';
  return `<h3>Messages</h3><p>${esc(w.url)}: ${esc(endedText(w))}</p>${table}${cut}`;
}
