/**
 * Which format an import file is in, and its document, or what is wrong with it (with the line
 * where there is one), for `sheet import` (docs/import.md, "Formats and detection"). Pure.
 *
 * JSON first (a `.json` file, or text starting with `{`); YAML (through `yaml`, loaded only
 * then) for `.yaml`/`.yml` files and other text. Then by the document's own marks:
 * `info.schema` of Postman collections (v2.0.0 and v2.1.0; v1's `requests` array is refused
 * with what to do), `values` of Postman environments and globals, `log.entries` of HAR,
 * `openapi`/`swagger` of OpenAPI and Swagger.
 */
import { postmanSchemaVersion, isPostmanEnvironment } from './postman.js';

export type Detected =
  | { format: 'postman-collection' | 'postman-environment' | 'har' | 'openapi'; doc: Record<string, unknown> }
  | { error: string; line?: number };

/** The 1-based line of character offset `pos` in `text`. */
function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

async function parseJson(text: string): Promise<{ doc: unknown } | { error: string; line?: number }> {
  try {
    return { doc: JSON.parse(text) };
  } catch {
    // JSON.parse's messages differ between Node versions and give no line: jsonc-parser finds
    // the first error and its offset (strict: no comments, no trailing commas).
    const { parse, printParseErrorCode } = await import('jsonc-parser/lib/esm/main.js'); // the ESM build, as http-file/environment.ts
    const errors: import('jsonc-parser/lib/esm/main.js').ParseError[] = [];
    parse(text, errors, { disallowComments: true, allowTrailingComma: false });
    const e = errors[0];
    if (!e) return { error: 'not valid JSON' };
    const atEnd = e.offset >= text.trimEnd().length;
    return { error: atEnd ? 'not valid JSON: it ends too early (a truncated file?)' : `not valid JSON: ${printParseErrorCode(e.error)}`, line: lineAt(text, Math.min(e.offset, text.trimEnd().length)) };
  }
}

async function parseYaml(text: string): Promise<{ doc: unknown } | { error: string; line?: number }> {
  const YAML = await import('yaml');
  const d = YAML.parseDocument(text, { prettyErrors: true });
  if (d.errors.length) {
    const err = d.errors[0]!;
    return { error: `not valid YAML: ${err.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`, line: err.linePos?.[0]?.line };
  }
  return { doc: d.toJS({ maxAliasCount: 10000 }) };
}

/** The format of `text` read from `file` (its extension helps choose JSON or YAML). */
export async function detectImport(text: string, file: string): Promise<Detected> {
  const t = text.replace(/^\uFEFF/, '');
  if (!t.trim()) return { error: 'the file is empty' };
  const json = /\.json$/i.test(file) || /^\s*[{[]/.test(t);
  const parsed = json ? await parseJson(t) : await parseYaml(t);
  if ('error' in parsed) return parsed;
  const doc = parsed.doc;
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { error: 'not a Postman collection or environment, OpenAPI or Swagger spec, or HAR file: the document is not an object' };
  const d = doc as Record<string, unknown>;
  if (d.info && typeof d.info === 'object' && 'schema' in (d.info as object)) {
    const v = postmanSchemaVersion(d as { info?: { schema?: unknown } });
    if (v === 'v2.0.0' || v === 'v2.1.0') return { format: 'postman-collection', doc: d };
    return { error: `Postman collection schema ${v ?? String((d.info as { schema?: unknown }).schema)} is not supported: export the collection again as v2.1 (Postman: Export, Collection v2.1)` };
  }
  // Without info.schema (newman's own test collections): an item tree, read as v2.1 as newman does.
  if (Array.isArray(d.item) && (typeof d.name === 'string' || typeof d.info === 'object')) return { format: 'postman-collection', doc: d };
  if (Array.isArray(d.requests) && (Array.isArray(d.order) || typeof d.id === 'string')) return { error: 'a Postman collection v1, which is not supported: export it again as v2.1 (Postman: Export, Collection v2.1)' };
  if (isPostmanEnvironment(d)) return { format: 'postman-environment', doc: d };
  if (d.log && typeof d.log === 'object' && Array.isArray((d.log as { entries?: unknown }).entries)) return { format: 'har', doc: d };
  if (typeof d.openapi === 'string' || typeof d.swagger === 'string') return { format: 'openapi', doc: d };
  return { error: 'not a Postman collection (v2.0/v2.1) or environment, an OpenAPI 3 or Swagger 2 spec, or a HAR 1.2 file: none of info.schema, values, log.entries, openapi or swagger is there' };
}
