/**
 * HTML as text for a terminal, as resty does: `lynx -dump`, else `html2text`, else the bytes as
 * they are. Used by the shell verbs for `text/html` bodies unless `-Z` (docs/shell.md).
 */
import { spawnSync } from 'node:child_process';
import { which } from '../which.js';

/**
 * Render `body` (bytes in `charset`, default UTF-8) through `lynx -dump` found on `pathEnv`,
 * else `html2text`, else return it unchanged; the programs' output is UTF-8 text.
 */
export function renderHtml(body: Uint8Array, charset: string | undefined, pathEnv: string): Uint8Array {
  const env = { ...process.env, PATH: pathEnv };
  const lynx = which('lynx', pathEnv);
  if (lynx) {
    const cs = charset || 'utf-8';
    const r = spawnSync(lynx, ['-dump', '-stdin', '-force_html', `-assume_charset=${cs}`, '-display_charset=utf-8'], { input: body, env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  const h2t = which('html2text', pathEnv);
  if (h2t) {
    const r = spawnSync(h2t, [], { input: body, env, maxBuffer: 256 << 20 });
    if (r.status === 0 && r.stdout) return r.stdout;
  }
  return body;
}
