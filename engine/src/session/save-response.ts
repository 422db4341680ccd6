/**
 * JetBrains' `>> path` and `>>! path` lines below a `.http` request (issue 37 item 5): the
 * response body saved to a file after the exchange, as the JetBrains HTTP Client and httpyac
 * do. The path is relative to the `.http` file's folder (the working directory without a
 * file), `{{...}}` references are filled in, missing folders are created. `>>!` overwrites;
 * `>>` never does: when the file exists it writes `name-1.ext`, `name-2.ext`, ... (httpyac's
 * "-n suffix", before the extension). A file that cannot be written fails that line as an
 * assertion (`>>`), located and after the request, so the response is still shown and
 * `sheet run` counts the request failed.
 */
import { constants as fsc } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import type { SaveResponse } from '../sheet/ast.js';
import type { Assertion } from '../hooks/results.js';

/** Where one `>>` line saved the body: its line and the absolute file written. */
export interface SavedResponse {
  line: number;
  file: string;
}

/** The bytes to save: held in memory, or the spilled body's file (spill.ts), copied as is. */
export type SavedBody = { bytes: Uint8Array } | { file: string };

/** Tries of `name-N.ext` before `>>` gives up (a folder full of earlier runs' files). */
const MAX_SUFFIX = 10000;

/**
 * Save `body` to each of `saves` (`RequestNode.saveResponse`, in file order).
 * @param baseDir the `.http` file's folder (relative paths start there).
 * @param ctx the request's `{{...}}` context (resolve/http-vars.ts), for references in a path.
 * @returns the files written, and a failed assertion (line, `>>` or `>>!`, the path, why and
 *   what to do) for each line that could not be written.
 */
export async function saveResponses(saves: readonly SaveResponse[], body: SavedBody, baseDir: string, ctx: HttpVarContext | undefined): Promise<{ saved: SavedResponse[]; failures: Assertion[] }> {
  const saved: SavedResponse[] = [];
  const failures: Assertion[] = [];
  for (const s of saves) {
    const op = s.overwrite ? '>>!' : '>>';
    try {
      const written = ctx ? substituteHttp(s.path, ctx, s.line) : s.path;
      const target = path.resolve(baseDir, written);
      await fs.mkdir(path.dirname(target), { recursive: true }).catch((e: NodeJS.ErrnoException) => {
        throw e.code === 'EEXIST' || e.code === 'ENOTDIR' ? new Error(`${e.path ?? path.dirname(target)} is a file, not a folder`) : e;
      });
      saved.push({ line: s.line, file: await writeBody(target, body, s.overwrite) });
    } catch (e) {
      const why = (e as Error).message;
      failures.push({
        line: s.line,
        name: op,
        args: s.path,
        passed: false,
        message: `line ${s.line}: ${op} ${s.path}: the response body was not saved: ${why}. Make the folder writable, or change the path (relative to the .http file).`,
      });
    }
  }
  return { saved, failures };
}

/** Write `body` to `target` (overwriting), or to the first free `name[-N].ext` (exclusive create). */
async function writeBody(target: string, body: SavedBody, overwrite: boolean): Promise<string> {
  if (overwrite) {
    await put(target, body, 'w');
    return target;
  }
  const ext = path.extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 0; n < MAX_SUFFIX; n++) {
    const candidate = n === 0 ? target : `${stem}-${n}${ext}`;
    try {
      await put(candidate, body, 'wx');
      return candidate;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  throw new Error(`${target} and ${MAX_SUFFIX - 1} suffixed names already exist`);
}

/** Write `body` to `file` with open flag `flag` (`wx`: fail with EEXIST when it exists). */
async function put(file: string, body: SavedBody, flag: 'w' | 'wx'): Promise<void> {
  if ('bytes' in body) {
    await fs.writeFile(file, body.bytes, { flag });
    return;
  }
  await fs.copyFile(body.file, file, flag === 'wx' ? fsc.COPYFILE_EXCL : 0);
}
