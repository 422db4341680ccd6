/**
 * Imported requests (`model.ts`) -> `.http` text in the syntax docs/http-files.md describes:
 * `###` and the folder path with the name, `# @name` (an identifier made of the name, unique in
 * the import), comment lines, `< {% %}` pre-request scripts, the request line, headers (disabled
 * ones as `# Name: value` comment lines, a description as comment lines above its header), the body of each kind, `> {% %}` handlers. Pure.
 */
import type { ImportedBody, ImportedField, ImportedFile, ImportedRequest, ImportWarning } from './model.js';

/** The boundary of multipart bodies written by the import (a value holding it gets a suffix). */
export const IMPORT_BOUNDARY = 'SheetImportBoundary';

/**
 * A `# @name` identifier for `name` (letters, digits, `_`, `-`; `{{id.response...}}` can name
 * it), unique among `taken` (which it joins): `Get user #2` -> `Get_user_2`, then `Get_user_2_2`.
 */
export function requestId(name: string, taken: Set<string>): string {
  let base = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'request';
  if (/^[0-9-]/.test(base)) base = `r_${base}`;
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  taken.add(id);
  return id;
}

/** Lines as comments: `# line` (a blank line stays `#`). */
export function commentLines(text: string): string[] {
  return text.split(/\r?\n/).map((l) => (l.trim() ? `# ${l}` : '#'));
}

/**
 * A form name or value as Postman and browsers encode it (`encodeURIComponent`: `\\` -> `%5C`,
 * `&` -> `%26`), `{{...}}` references kept as they are; the engine's form rule
 * (resolve/http-form.ts) keeps `%XX`, so these bytes are sent. A variable's value is encoded by
 * the engine's rule, which keeps a few characters Postman encodes (docs/import.md).
 */
const formValue = (s: string) => s.split(/(\{\{[^{}]*\}\})/).map((p, i) => (i % 2 ? p : encodeURIComponent(p))).join('');

function multipart(fields: ImportedField[], boundary: string): string[] {
  const out: string[] = [];
  for (const f of fields.filter((x) => !x.disabled)) {
    out.push(`--${boundary}`);
    if (f.file !== undefined) {
      const base = f.file.split(/[\\/]/).pop() || f.name;
      out.push(`Content-Disposition: form-data; name="${f.name}"; filename="${base}"`);
      if (f.contentType) out.push(`Content-Type: ${f.contentType}`);
      out.push('', `< ${/^([./~]|[A-Za-z]:)/.test(f.file) ? f.file : `./${f.file}`}`);
    } else {
      out.push(`Content-Disposition: form-data; name="${f.name}"`);
      if (f.contentType) out.push(`Content-Type: ${f.contentType}`);
      out.push('', f.value ?? '');
    }
  }
  out.push(`--${boundary}--`);
  return out;
}

function bodyLines(body: ImportedBody, where: string, warnings: ImportWarning[]): string[] {
  switch (body.kind) {
    case 'raw': {
      const lines = body.text.split(/\r?\n/);
      // A body line that the .http parser would read as something else ends the body there.
      for (const [i, l] of lines.entries()) {
        if (/^###/.test(l)) warnings.push({ where, message: `body line ${i + 1} starts with ###, which ends a request in a .http file; the body is cut there` });
        else if (/^(<>|>>!?|> \{%)\s/.test(l)) warnings.push({ where, message: `body line ${i + 1} (${l.slice(0, 20)}) reads as a .http construct, not body text` });
      }
      while (lines.length && lines[lines.length - 1] === '') lines.pop();
      return lines;
    }
    case 'urlencoded':
      return body.fields.filter((f) => !f.disabled).map((f, i) => `${i ? '&' : ''}${formValue(f.name)}=${formValue(f.value ?? '')}`);
    case 'multipart':
      return multipart(body.fields, IMPORT_BOUNDARY);
    case 'graphql':
      return [...body.query.replace(/\s+$/, '').split(/\r?\n/), ...(body.variables?.trim() ? ['', ...body.variables.trim().split(/\r?\n/)] : [])];
    case 'file':
      return [`< ${/^([./~]|[A-Za-z]:)/.test(body.path) ? body.path : `./${body.path}`}`];
  }
}

/** The header a body kind needs when the request has none of that name. */
function impliedHeaders(r: ImportedRequest): [string, string][] {
  const has = (n: string) => r.headers.some((h) => !h.disabled && h.name.toLowerCase() === n);
  const out: [string, string][] = [];
  if (r.body?.kind === 'urlencoded' && !has('content-type')) out.push(['Content-Type', 'application/x-www-form-urlencoded']);
  if (r.body?.kind === 'multipart') {
    if (has('content-type')) r.headers = r.headers.filter((h) => h.disabled || h.name.toLowerCase() !== 'content-type');
    out.push(['Content-Type', `multipart/form-data; boundary=${IMPORT_BOUNDARY}`]);
  }
  if (r.body?.kind === 'graphql' && r.method.toUpperCase() !== 'POST' && !r.headers.some((h) => h.name.toLowerCase() === 'x-request-type')) out.push(['X-REQUEST-TYPE', 'GraphQL']);
  return out;
}

/** One request as `.http` lines (starting with its `###` line). */
export function requestToHttpLines(r: ImportedRequest, taken: Set<string>, warnings: ImportWarning[]): string[] {
  const title = [...r.folder, r.name].join(' / ');
  const where = `request "${title}"`;
  const out = [`### ${title.replace(/\r?\n/g, ' ')}`, `# @name ${requestId(r.name, taken)}`];
  for (const c of r.comments) out.push(...commentLines(c));
  if (r.preScript?.trim()) out.push('< {%', ...r.preScript.replace(/\s+$/, '').split(/\r?\n/).map((l) => `    ${l}`.trimEnd()), '%}');
  // JetBrains' GRAPHQL request line: POST with the GraphQL JSON body and no marker header.
  out.push(`${r.body?.kind === 'graphql' && r.method.toUpperCase() === 'POST' ? 'GRAPHQL' : r.method.toUpperCase()} ${r.url}`);
  for (const [n, v] of impliedHeaders(r)) out.push(`${n}: ${v}`);
  for (const h of r.headers) {
    if (h.comment) out.push(...commentLines(h.comment));
    out.push(`${h.disabled ? '# ' : ''}${h.name}: ${h.value}`);
  }
  if (r.body) {
    const lines = bodyLines(r.body, where, warnings);
    if (lines.length) out.push('', ...lines);
  }
  if (r.handler?.trim()) out.push('', '> {%', ...r.handler.replace(/\s+$/, '').split(/\r?\n/).map((l) => `    ${l}`.trimEnd()), '%}');
  return out;
}

/** A whole imported file as `.http` text; `taken` holds the `# @name`s of the whole import. */
export function fileToHttp(f: ImportedFile, taken: Set<string>, warnings: ImportWarning[]): string {
  const out: string[] = [...f.header.flatMap(commentLines)];
  for (const [n, v] of f.vars) out.push(`@${n} = ${v.replace(/\r?\n/g, ' ')}`);
  for (const r of f.requests) {
    if (out.length) out.push('');
    out.push(...requestToHttpLines(r, taken, warnings));
  }
  return `${out.join('\n')}\n`;
}
