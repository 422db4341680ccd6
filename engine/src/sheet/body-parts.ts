/**
 * Body lines that mix text with `< path` lines (the JetBrains / VS Code REST Client form, used
 * for multipart/form-data): one rule for the `.http` parser and the sheet parser (a sheet reads
 * it when the request's Content-Type is multipart). Pure; the resolver joins the parts
 * (../resolve/body-parts.ts).
 */
import type { BodyNode, BodyPart } from './ast.js';

/** Whether a Content-Type value is multipart (`multipart/form-data; boundary=...`). */
export const isMultipart = (contentType: string | undefined): boolean => /^\s*multipart\//i.test(contentType ?? '');

/** `< path`, `<@ path` (variables substituted) or `<@latin1 path` (that encoding). */
export const FILE_BODY = /^<(@(\w*))?[ \t]+(\S.*?)[ \t]*$/;

/**
 * The body lines as text, `< path` lines included: a WebSocket request's messages, where a
 * one-line `< path` message is read by the transport (./stream-messages.ts, ../session/websocket.ts).
 */
export function textBodyNode(lines: { text: string; line: number }[]): BodyNode | undefined {
  if (!lines.length) return undefined;
  return { kind: 'text', text: lines.map((l) => l.text).join('\n'), line: lines[0]!.line, endLine: lines[lines.length - 1]!.line };
}

/**
 * The body node of the body lines: a file body, text, or text with `< path` parts. Parts are
 * whole lines: the resolver joins them with the body's line ending.
 */
export function bodyNode(lines: { text: string; line: number }[]): BodyNode | undefined {
  if (!lines.length) return undefined;
  const first = lines[0]!.line;
  const last = lines[lines.length - 1]!.line;
  const fileOf = (l: { text: string; line: number }): BodyPart | undefined => {
    if (l.text.charCodeAt(0) !== 60 /* < */) return undefined;
    const f = FILE_BODY.exec(l.text);
    if (!f) return undefined;
    const part: BodyPart = { kind: 'file', path: f[3]!, line: l.line };
    if (f[1]) part.substitute = true;
    if (f[2]) part.encoding = f[2];
    return part;
  };
  if (lines.length === 1) {
    const f = fileOf(lines[0]!);
    if (f && f.kind === 'file') return { ...f };
  }
  const parts: BodyPart[] = [];
  let text: string[] = [];
  let textLine = first;
  for (const l of lines) {
    const f = fileOf(l);
    if (f) {
      if (text.length) parts.push({ kind: 'text', text: text.join('\n'), line: textLine });
      parts.push(f);
      text = [];
      textLine = l.line + 1;
    } else {
      if (!text.length) textLine = l.line;
      text.push(l.text);
    }
  }
  if (parts.length === 0) return { kind: 'text', text: text.join('\n'), line: first, endLine: last };
  if (text.length) parts.push({ kind: 'text', text: text.join('\n'), line: textLine });
  return { kind: 'parts', parts, line: first, endLine: last };
}
