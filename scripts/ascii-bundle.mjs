#!/usr/bin/env node
// Makes each bundle given ASCII only (make build-engine runs it on engine/dist/*.cjs).
// esbuild escapes non-ASCII characters in strings (its default --charset=ascii), but leaves
// those of the comments it keeps and of regular expression literals as they are; one such
// character makes Node read a whole bundle as a two-byte string (8 MB for the 4 MB of
// engine/dist/sheet.cjs), and decoding it from UTF-8 took 11-15 ms of every `sheet` start
// against 4-5 ms for ASCII, more under load (docs/benchmarks.md, "grpc"). Each such character is written as \uXXXX: in a comment it is
// text, in a regular expression or string the same character. One after a backtick on its line
// (a tagged template literal, whose raw text an escape would change) fails the build instead,
// naming the line.
//   node scripts/ascii-bundle.mjs FILE...
import fs from 'node:fs';

const escape = (c) => [...c].map((ch) => {
  const u = ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
  return ch.length === 1 ? `\\u${u}` : `\\u${u}\\u${ch.charCodeAt(1).toString(16).toUpperCase().padStart(4, '0')}`;
}).join('');

let failed = false;
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/[^\x00-\x7F]/.test(text)) continue;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n];
    if (!/[^\x00-\x7F]/.test(line)) continue;
    const comment = line.indexOf('//');
    const first = line.search(/[^\x00-\x7F]/);
    const tick = line.indexOf('`');
    if (tick >= 0 && tick < first && !(comment >= 0 && comment < tick)) {
      process.stderr.write(`${file}:${n + 1}: a non-ASCII character after a backtick (a template literal?): ${line.trim().slice(0, 120)}\n`);
      failed = true;
      continue;
    }
    // `\一` (an identity escape: the character itself) becomes `\u4E00`, not `\\u4E00`.
    lines[n] = line.replace(/(\\*)([^\x00-\x7F]+)/gu, (_, bs, cs) => bs.slice(0, bs.length - (bs.length % 2)) + escape(cs));
  }
  fs.writeFileSync(file, lines.join('\n'));
}
process.exit(failed ? 1 : 0);
