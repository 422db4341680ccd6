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
  | { kind: 'send'; text: string; line: number; file?: string }
  | { kind: 'wait'; line: number };

/** A message that is one line `< path`: the file's bytes are the message (httpyac, JetBrains). */
const FILE_MESSAGE = /^<[ \t]+(\S.*?)[ \t]*$/;

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
 *   (lines inside kept as written), each `=== wait-for-server` a `wait`. A message that is one
 *   line `< path` has `file`: the transport sends that file (a WebSocket, as a binary message). A body with no `===`
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
    if (end > start) {
      const text = chunk.slice(start, end).join('\n');
      const file = end - start === 1 ? FILE_MESSAGE.exec(text)?.[1] : undefined;
      steps.push({ kind: 'send', text, line: chunkStart + start, ...(file ? { file } : {}) });
    }
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
