/**
 * The one entry point front ends call to parse a request file: it picks the syntax.
 *
 * - `.http` and `.rest` files: the `.http` syntax (VS Code REST Client / JetBrains);
 * - `.sheet` files: restclient's sheet syntax, always (docs/sheet-format.md);
 * - any other name (or none): the sheet syntax, unless the first line carries the Emacs-style
 *   marker `-*- sheet-syntax: http -*-` (e.g. `# -*- sheet-syntax: http -*-`), which selects
 *   the `.http` syntax (`sheet-syntax: sheet` selects the sheet syntax).
 * Documented in docs/http-files.md ("Which parser").
 */
import path from 'node:path';
import type { Sheet, SheetSyntax } from '../sheet/ast.js';
import { parseSheet } from '../sheet/parse.js';
import { parseHttpFile } from './parse.js';

export { parseHttpFile } from './parse.js';
export { loadEnvironment, type Environment } from './environment.js';

const MARKER = /-\*-.*\bsheet-syntax:\s*(http|sheet)\b.*-\*-/;

/** The syntax `parseForFile` uses for `text` named `fileName` (see the module comment). */
export function syntaxFor(text: string, fileName?: string): SheetSyntax {
  const ext = fileName ? path.extname(fileName).toLowerCase() : '';
  if (ext === '.http' || ext === '.rest') return 'http';
  if (ext === '.sheet') return 'sheet';
  const firstLine = text.slice(0, Math.min(text.length, 512)).split(/\r?\n/, 1)[0] ?? '';
  return MARKER.exec(firstLine)?.[1] === 'http' ? 'http' : 'sheet';
}

/**
 * Parse request-file text with the parser its name (or first-line marker) calls for. Pure,
 * never throws.
 * @param fileName the file's name or path (only its extension is used); may be undefined.
 */
export function parseForFile(text: string, fileName?: string): Sheet {
  return syntaxFor(text, fileName) === 'http' ? parseHttpFile(text) : parseSheet(text);
}
