/**
 * Writing a file whole, for the reports of `sheet run` and the files `sheet convert`, `sheet
 * import` and `sheet export --to postman` write. Its own file so `sheet import`'s bundle
 * (engine/dist/convert.cjs) does not load the report writers' libraries (junit-report-builder).
 */
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/**
 * Write `text` to `file` whole: a uniquely named temporary file beside it, then a rename. Mode
 * 0600: a report holds requests as sent (Authorization, Cookie) and the first bytes of bodies.
 */
export async function writeReport(file: string, text: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(tmp, text, { mode: 0o600, flag: 'wx' });
    await fs.rename(tmp, file);
  } catch (e) {
    await fs.rm(tmp, { force: true });
    throw e;
  }
}
