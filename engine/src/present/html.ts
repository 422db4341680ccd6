/**
 * HTML as text for a terminal, as resty does: `lynx -dump`, else `html2text`, else the bytes as
 * they are. Used by the shell verbs for `text/html` bodies unless `-Z` (docs/shell.md).
 */
import { spawnSync } from 'node:child_process';
import { which } from '../which.js';

/**
 * Render `body` (bytes in `charset`, default UTF-8) through `lynx -dump` found on `pathEnv`,
 * else `html2text`, else return it unchanged; the programs' output is UTF-8 text. `url` (the
 * page's own) goes before the page as `<base href>`, so lynx lists its links as URLs of the
 * server (credentials left out), not as files of its temporary directory (`file:///tmp/lynxXXXX/a.txt`), as resty
 * rewrites lynx's `file://` references to the host.
 */
export function renderHtml(body: Uint8Array, charset: string | undefined, pathEnv: string, url?: string): Uint8Array {
  const env = { ...process.env, PATH: pathEnv };
  const lynx = which('lynx', pathEnv);
  if (lynx) {
    const cs = charset || 'utf-8';
    const base = url ? Buffer.from(`<base href="${withoutCredentials(url).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')}">`, 'utf8') : Buffer.alloc(0);
    const r = spawnSync(lynx, ['-dump', '-stdin', '-force_html', `-assume_charset=${cs}`, '-display_charset=utf-8'], { input: Buffer.concat([base, body]), env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  const h2t = which('html2text', pathEnv);
  if (h2t) {
    const r = spawnSync(h2t, [], { input: body, env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  return body;
}

/** `url` without a user name and password (they would be printed with every link). */
function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return url;
  }
}
