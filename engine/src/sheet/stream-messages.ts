/**
 * A request body written as several messages, for the transports that send more than one
 * (WebSocket, gRPC client streaming and bidirectional calls): JetBrains HTTP Client's `===`
 * separator lines, and `=== wait-for-server` to wait for one message from the server before
 * going on (it may repeat). JetBrains HTTP Client docs, "WebSocket requests" and "gRPC
 * requests"; httpyac and kulala.nvim read the same lines. One rule for both parsers and every
 * transport (the `.http` parser and the sheet parser hand their body text here).
 *
 * Pure; never throws.
 */

/** One step of a message script, in order. `line` is the 1-based line in the file. */
export type StreamStep =
  | { kind: 'send'; text: string; line: number }
  | { kind: 'wait'; line: number };

/** A `===` line: `===` alone, or `=== wait-for-server` (case as JetBrains writes it; spaces free). */
const SEPARATOR = /^[ \t]*===[ \t]*(wait-for-server)?[ \t]*$/;

/** Whether a body line is a message separator (`===` or `=== wait-for-server`). */
export function isStreamSeparator(line: string): boolean {
  return SEPARATOR.test(line);
}

/**
 * Split a body into the messages to send and the waits between them.
 *
 * @param body the body text as written (lines joined with `\n`; `\r\n` accepted).
 * @param firstLine the file line of the body's first line (1-based), for `line` of each step.
 * @returns the steps in order: each message's text with the blank lines around it trimmed
 *   (lines inside kept as written), each `=== wait-for-server` a `wait`. A body with no `===`
 *   line is one message (or none when blank). Empty messages between separators are dropped.
 */
export function splitStreamMessages(body: string, firstLine = 1): StreamStep[] {
  const lines = body.split(/\r?\n/);
  const steps: StreamStep[] = [];
  let chunk: string[] = [];
  let chunkStart = firstLine;
  const flush = (): void => {
    let start = 0;
    let end = chunk.length;
    while (start < end && chunk[start]!.trim() === '') start++;
    while (end > start && chunk[end - 1]!.trim() === '') end--;
    if (end > start) steps.push({ kind: 'send', text: chunk.slice(start, end).join('\n'), line: chunkStart + start });
    chunk = [];
  };
  lines.forEach((text, i) => {
    const m = SEPARATOR.exec(text);
    if (!m) {
      if (chunk.length === 0) chunkStart = firstLine + i;
      chunk.push(text);
      return;
    }
    flush();
    if (m[1]) steps.push({ kind: 'wait', line: firstLine + i });
  });
  flush();
  return steps;
}
