/**
 * The cookie jars of the session, in the Netscape format curl reads and writes
 * (http/cookies.ts; curl's manual, `-b`/`-c`), as {@link ExchangeJar}s that the one exchange
 * path (exchange.ts) reads before a request and saves after it. Two lifetimes, one home:
 *
 * - {@link FileJar}: a session's jar (sheet-mode's `cookieJarFile`, `sheet run --cookie-jar`),
 *   kept between requests: what concurrent writers put in the file is read before each request,
 *   and the jar is written only when it has changes of its own (lock, re-read, merge, rename).
 * - {@link openCallJar}: one shell verb call's jar (`-b FILE`, `-c FILE`, `-j`): every file
 *   `-b` names loaded into one jar, written to the `-c` file when a cookie changed, as curl does.
 *
 * A file that cannot be read or written is a warning (`cookie-jar-unreadable`,
 * `cookie-jar-unwritable` in docs/errors.md), never the request's failure.
 */
import fs from 'node:fs';
import type { CookieJar } from 'tough-cookie';
import { hasOwnChanges, jarCookies, newJar, parseNetscape, refreshJar, toNetscape, tryLoadJar, trySaveJar } from '../http/cookies.js';

/** A cookie jar as the exchange uses it: read before the request, saved after it. */
export interface ExchangeJar {
  readonly jar: CookieJar;
  /** Before the request: bring in what the file holds now. @returns a warning to say, or null. */
  beforeSend(): Promise<string | null>;
  /** After the request: save what changed. @returns the warning when the file cannot be written, or null. */
  afterSend(): Promise<string | null>;
}

/** A session's cookie jar, kept between its requests; saved to `file` when set. */
export class FileJar implements ExchangeJar {
  /** The cookie file; null: in memory only (none set, or it could not be read). */
  file: string | null = null;

  /** @param jar the jar to start with, in memory (a program's own); default an empty one. */
  constructor(public jar: CookieJar = newJar()) {}

  /**
   * Use the cookie file `file` (absolute; null: none): a missing file is an empty jar; one that
   * exists but cannot be read (a directory, no permission) gives an empty jar that is not saved.
   * @returns the warning for an unreadable file, else null.
   */
  async use(file: string | null): Promise<string | null> {
    const { jar, warning } = await tryLoadJar(file);
    this.jar = jar;
    this.file = warning ? null : file;
    return warning;
  }

  async beforeSend(): Promise<null> {
    if (this.file) await refreshJar(this.jar, this.file);
    return null;
  }

  async afterSend(): Promise<string | null> {
    // A jar without changes of its own (no cookie set or expired) is not written: no lock, no
    // read, no write; what others wrote stays in the file and is read before the next request.
    return this.file && (await hasOwnChanges(this.jar, this.file)) ? trySaveJar(this.jar, this.file) : null;
  }
}

/**
 * One call's jar (curl's `-b FILE...`, `-c FILE`, `-j`): loaded when the request is about to go
 * (`beforeSend`), every `load` file into one jar; the first one is the jar that is saved back,
 * so when it cannot be read it is not written over either. Saved to `save` after the request
 * when a cookie changed (or `junkSession` dropped session cookies), as curl writes `-c`.
 */
export function openCallJar(load: string[], save: string | undefined, junkSession: boolean): ExchangeJar {
  let jar: CookieJar = newJar();
  let before = '';
  let unreadable: string | undefined;
  return {
    get jar() {
      return jar;
    },
    async beforeSend() {
      const loaded = await tryLoadJar(load[0] ?? null, junkSession);
      jar = loaded.jar;
      if (loaded.warning) unreadable = load[0];
      for (const f of load.slice(1)) {
        let text: string;
        try {
          text = await fs.promises.readFile(f, 'utf8');
        } catch {
          continue;
        }
        const store = jar.store as unknown as { putCookie(c: unknown): Promise<void> };
        for (const c of parseNetscape(text, junkSession)) await store.putCookie(c);
      }
      before = toNetscape(await jarCookies(jar));
      return loaded.warning;
    },
    async afterSend() {
      const after = toNetscape(await jarCookies(jar));
      return save && save !== unreadable && (after !== before || junkSession) ? trySaveJar(jar, save) : null;
    },
  };
}
