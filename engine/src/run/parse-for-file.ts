/**
 * The one place that chooses a parser by file name, so every syntax that produces the sheet
 * AST (src/sheet/: `.sheet` and restclient's files; src/http-file/: `.http` and `.rest`, once
 * that parser lands) runs through the same `sheet run`. Extend the switch, nothing else.
 */
import { parseSheet } from '../sheet/parse.js';
import type { Sheet } from '../sheet/ast.js';

/**
 * Parse `text` with the parser for `fileName`'s syntax. Pure.
 * @returns the Sheet AST with its diagnostics (errors located by line).
 */
export function parseForFile(text: string, fileName: string): Sheet {
  void fileName; // every extension is the sheet syntax for now
  return parseSheet(text);
}
