/**
 * `sheet/diagnostics` (docs/protocol.md): the session's side of ../lint/diagnostics.ts, which
 * is pure: the names defined outside the text (the session's overrides; for `.http` files the
 * chosen environment's names, `$shared` included). A bad environment file adds no names here
 * (`sheet/send` reports it); its `{{names}}` then show as undefined.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expandPath } from '../resolve/url-path.js';
import { loadEnvironment } from '../http-file/environment.js';
import { Linter } from '../lint/diagnostics.js';
import type { Sheet } from '../sheet/ast.js';
import type { DiagnosticOut, DiagnosticsParams } from './protocol.js';

/** One engine serves one editor: its requests' checks are kept between calls (lint/diagnostics.ts). */
const linter = new Linter();

/** The diagnostics of `sheet` (parsed from `text`), for the editor. */
export function diagnosticsOf(text: string, sheet: Sheet, p: DiagnosticsParams, overrides: ReadonlyMap<string, string>): DiagnosticOut[] {
  let environment: string[] = [];
  if (sheet.syntax === 'http') {
    try {
      environment = Object.keys(loadEnvironment(p.path ?? path.join(process.cwd(), 'untitled.http'), p.env || undefined).variables);
    } catch {
      // An unknown or bad environment: sheet/send says so; here its names are simply missing.
    }
  }
  // Directive files (`# @cacert FILE`) are read from the sheet's directory, as when sent.
  const dir = p.path ? path.dirname(path.resolve(p.path)) : process.cwd();
  const fileCheck = (name: string) => {
    try {
      fs.accessSync(expandPath(name, dir), fs.constants.R_OK);
      return undefined;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code ?? 'unreadable';
    }
  };
  return linter.lint(text, sheet, { overrides: overrides.keys(), environment, fileCheck });
}
