/**
 * curl's `-F` / `--form` and `--form-string` (curl's manual, -F; tool_formparse.c) as a sheet's
 * multipart body: the parts curl 7.88 sends, written in the multipart form that sheets and
 * `.http` files share (../sheet/body-parts.ts: text lines, and `< path` lines for file bytes,
 * joined with CRLF by ../resolve/body-parts.ts). Checked against the bytes real curl sends
 * (test/engine/curl-form.test.ts). Pure: files are read when the sheet request is sent.
 */
import { EngineError } from '../errors.js';
import { FILE_BODY } from '../sheet/body-parts.js';

/** One `-F` part as curl reads it. */
export interface FormPart {
  /** The option as written, for messages: `-F 'f=@a.txt'`. */
  written: string;
  name: string;
  /** `text`: `name=value`; `file`: `name=@path` (an upload, with a filename); `content`: `name=<path` (the file's bytes as a field). */
  kind: 'text' | 'file' | 'content';
  /** The text of a `text` part, the path of the others. */
  value: string;
  /** `;type=` */
  type?: string;
  /** `;filename=` */
  filename?: string;
  /** `;headers=` (one header line each). */
  headers: string[];
  /** `;name=...` parameters curl skips (with its warning "skip unknown form field"). */
  skipped: string[];
}

const bad = (message: string, hint: string) => new EngineError('bad-argument', message, { hint });

/** curl's get_param_word: a `"quoted"` word (`\"` and `\\` escaped) or the text up to `;` (and `,` for a file). */
function paramWord(s: string, at: number, stopAtComma: boolean): { word: string; end: number } {
  if (s[at] === '"') {
    let word = '';
    let i = at + 1;
    for (; i < s.length && s[i] !== '"'; i++) {
      if (s[i] === '\\' && (s[i + 1] === '"' || s[i + 1] === '\\')) i++;
      word += s[i];
    }
    // curl takes the quotes as part of the word when nothing but `;` (or the end) follows them.
    if (i < s.length && (i + 1 === s.length || s[i + 1] === ';' || (stopAtComma && s[i + 1] === ','))) return { word, end: i + 1 };
  }
  let end = at;
  while (end < s.length && s[end] !== ';' && !(stopAtComma && s[end] === ',')) end++;
  return { word: s.slice(at, end), end };
}

/**
 * Read one `-F` argument (`name=value`, `name=@file`, `name=<file`, each with `;type=`,
 * `;filename=`, `;headers=`), or a `--form-string` one (`name=value`, taken as written).
 * @throws EngineError `bad-argument` for what a sheet request cannot send as curl does: no `=`,
 *   standard input (`@-`, `<-`), several files in one part, `;encoder=`, `;headers=@file`.
 */
export function parseFormArg(option: string, arg: string, literal: boolean): FormPart {
  const written = `${option} ${arg}`;
  const eq = arg.indexOf('=');
  if (eq < 0) throw bad(`${written}: a form part is name=value (curl's manual, -F)`, 'Write -F name=value, -F name=@file or -F name=<file.');
  const part: FormPart = { written, name: arg.slice(0, eq), kind: 'text', value: '', headers: [], skipped: [] };
  const rest = arg.slice(eq + 1);
  if (literal) return { ...part, value: rest };
  let at = 0;
  if (rest[0] === '@' || rest[0] === '<') {
    part.kind = rest[0] === '@' ? 'file' : 'content';
    at = 1;
  }
  const first = paramWord(rest, at, part.kind === 'file');
  part.value = first.word;
  at = first.end;
  if (part.kind !== 'text' && part.value === '-') throw bad(`${written}: the part is read from standard input, which a sheet cannot`, 'Save it to a file and write name=@file.');
  if (rest[at] === ',') throw bad(`${written}: several files in one part (curl sends them as multipart/mixed); a sheet writes one file a part`, 'Give each file its own -F name=@file.');
  while (at < rest.length && rest[at] === ';') {
    at++;
    while (rest[at] === ' ' || rest[at] === '\t') at++;
    const key = /^([a-z]+)=/i.exec(rest.slice(at));
    const { word, end } = key ? paramWord(rest, at + key[0].length, false) : paramWord(rest, at, false);
    const what = key?.[1]!.toLowerCase();
    if (what === 'type') part.type = word;
    else if (what === 'filename') part.filename = word;
    else if (what === 'headers') {
      if (word.startsWith('@') || word.startsWith('<')) throw bad(`${written}: headers read from a file are not carried`, 'Write each header as ;headers="Name: value".');
      part.headers.push(word);
    } else if (what === 'encoder') throw bad(`${written}: ;encoder= (curl encodes the part) is not carried`, 'Encode the data yourself and send it as the part.');
    else part.skipped.push(rest.slice(at, end));
    at = end;
  }
  return part;
}

/** curl's Content-Type of an uploaded file by its extension (lib/mime.c, ContentTypeForFilename). */
const FILE_TYPES: Record<string, string> = {
  gif: 'image/gif', jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', svg: 'image/svg+xml',
  txt: 'text/plain', htm: 'text/html', html: 'text/html', pdf: 'application/pdf', xml: 'application/xml',
};

/** The file name part of a path, as curl's basename (both / and \ on Windows; / here). */
const baseName = (p: string) => p.slice(p.lastIndexOf('/') + 1);

/** curl 7.81+ escapes `"`, CR and LF in a disposition's name and filename (lib/mime.c escape_string). */
const escapeQuoted = (s: string) => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/**
 * A curl-style multipart boundary: 24 dashes and 16 hex digits, as curl 7.88 makes it (random,
 * so no two runs of curl send the same bytes either).
 */
export function formBoundary(random: () => number = Math.random): string {
  let hex = '';
  for (let i = 0; i < 16; i++) hex += Math.floor(random() * 16).toString(16);
  return '-'.repeat(24) + hex;
}

/**
 * The sheet body lines of `parts` as curl sends them: each part's delimiter, headers, an empty
 * line and the value (or a `< path` line for a file's bytes), the closing delimiter and a last
 * empty line (the sheet parser drops the body's last newline; curl ends with CRLF).
 * @param disposition `form-data`, or `attachment` when a `-H` Content-Type names another
 *   multipart type (curl's rule).
 * @throws EngineError `bad-argument` for a value a sheet body line cannot hold as curl sends
 *   it (a line break, a leading `#` that would end the request, a leading `<` read as a file).
 */
export function formLines(parts: FormPart[], boundary: string, disposition = 'form-data'): string[] {
  const lines: string[] = [];
  for (const p of parts) {
    lines.push(`--${boundary}`);
    let cd = `Content-Disposition: ${disposition}; name="${escapeQuoted(p.name)}"`;
    const filename = p.filename ?? (p.kind === 'file' ? baseName(p.value) : undefined);
    if (filename !== undefined) cd += `; filename="${escapeQuoted(filename)}"`;
    lines.push(cd);
    const type = p.type ?? (p.kind === 'file' ? FILE_TYPES[/\.([^./]+)$/.exec(filename ?? '')?.[1]?.toLowerCase() ?? ''] ?? 'application/octet-stream' : undefined);
    if (type !== undefined) lines.push(`Content-Type: ${type}`);
    for (const h of p.headers) {
      if (/[\r\n]/.test(h)) throw bad(`${p.written}: a part header holds a line break`, 'Write one header per ;headers=.');
      lines.push(h);
    }
    lines.push('');
    if (p.kind === 'text') {
      if (/[\r\n]/.test(p.value)) throw bad(`${p.written}: the value holds a line break, which a sheet multipart body sends as CRLF`, 'Save the value to a file and write name=<file.');
      if (p.value.startsWith('#')) throw bad(`${p.written}: the value starts with #, which ends a sheet request`, 'Save the value to a file and write name=<file.');
      if (FILE_BODY.test(p.value)) throw bad(`${p.written}: the value reads as a "< file" line in a sheet body`, 'Save the value to a file and write name=<file.');
      lines.push(p.value);
    } else {
      if (!/^[^\n\r]*\S$/.test(p.value) || /^\s/.test(p.value)) throw bad(`${p.written}: a sheet body cannot name this file (a line break, or blanks around the name)`, 'Rename the file.');
      lines.push(`< ${p.value}`);
    }
  }
  lines.push(`--${boundary}--`, '');
  return lines;
}
