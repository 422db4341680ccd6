/**
 * Big response bodies handed to the client in a file instead of inside the JSON-RPC answer
 * (`sheet/send`'s `bodyFileMin`, docs/protocol.md). Encoding a multi-megabyte string as JSON,
 * piping it and parsing it again in Emacs costs far more than writing and reading a file.
 *
 * Each body gets a fresh private directory (mkdtemp: mode 0700) holding one file `body`
 * (mode 0600); the client deletes both once it has read the file. Directories this process
 * made that still exist when it exits (the client never got the answer) are removed then.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Prefix of the directories, under the system temp directory (`TMPDIR`). */
export const BODY_DIR_PREFIX = 'sheet-body-';

const made = new Set<string>();
let cleanupInstalled = false;

function removeLeftovers(): void {
  for (const dir of made) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort at exit
    }
  }
  made.clear();
}

/**
 * A new private temporary directory (mkdtemp: 0700), remembered for removal at exit.
 * @returns the path of the file `body` in it (not created yet; create it with mode 0600).
 */
export async function newBodyFilePath(): Promise<string> {
  if (!cleanupInstalled) {
    cleanupInstalled = true;
    process.on('exit', removeLeftovers);
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), BODY_DIR_PREFIX));
  // Forget directories the client has already removed, so the set stays small.
  if (made.size >= 64) for (const d of made) if (!fs.existsSync(d)) made.delete(d);
  made.add(dir);
  return path.join(dir, 'body');
}

/** Remove a body file made by {@link newBodyFilePath} and its directory (a failed transfer). */
export async function removeBodyFile(file: string): Promise<void> {
  const dir = path.dirname(file);
  made.delete(dir);
  await fs.promises.rm(dir, { recursive: true, force: true });
}

/**
 * Write `data` (a string, written as UTF-8, or bytes, written as they are) to a new file in a
 * new private temporary directory.
 * @returns the file's absolute path.
 * @throws the file system's error (the directory is removed again).
 */
export async function writeBodyFile(data: string | Uint8Array): Promise<string> {
  const file = await newBodyFilePath();
  const dir = path.dirname(file);
  try {
    await fs.promises.writeFile(file, data, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    made.delete(dir);
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw e;
  }
  return file;
}
