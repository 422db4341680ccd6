/**
 * Arguments as bytes. A shell argument is a byte string; curl sends `-d` data and a body
 * argument byte for byte whatever the encoding. Node decodes argv and multipart text as UTF-8
 * and replaces invalid bytes, so the verbs carry arguments as "byte strings": valid UTF-8
 * decodes as usual, and each byte of an invalid sequence becomes one lone surrogate
 * U+DC80..U+DCFF (Python's `surrogateescape`, PEP 383), which {@link argBytes} turns back into
 * that byte. Text that was valid UTF-8 is unchanged both ways.
 */
import fs from 'node:fs';

/** Decode bytes as UTF-8, keeping invalid bytes as U+DC80+byte (see the file comment). */
export function decodeArg(b: Uint8Array): string {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const s = buf.toString('utf8');
  if (!s.includes('\uFFFD') || Buffer.from(s, 'utf8').equals(buf)) return s;
  const dec = new TextDecoder('utf-8', { fatal: true });
  let out = '';
  let i = 0;
  while (i < buf.length) {
    // The longest valid UTF-8 sequence starting at i (1 to 4 bytes), else one escaped byte.
    let took = 0;
    const b0 = buf[i]!;
    const len = b0 < 0x80 ? 1 : b0 >= 0xc2 && b0 <= 0xdf ? 2 : b0 >= 0xe0 && b0 <= 0xef ? 3 : b0 >= 0xf0 && b0 <= 0xf4 ? 4 : 0;
    if (len && i + len <= buf.length) {
      try {
        out += dec.decode(buf.subarray(i, i + len));
        took = len;
      } catch {
        took = 0;
      }
    }
    if (!took) {
      out += String.fromCharCode(0xdc00 + b0);
      took = 1;
    }
    i += took;
  }
  return out;
}

/** The bytes of an argument decoded by {@link decodeArg} (plain text: its UTF-8). */
export function argBytes(s: string): Buffer {
  if (!/[\udc80-\udcff]/.test(s)) return Buffer.from(s, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A lone low surrogate (not after a high one) in the escape range is one raw byte.
    const prevHigh = i > 0 && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
    if (c >= 0xdc80 && c <= 0xdcff && !prevHigh) {
      if (run) parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([c - 0xdc00]));
    } else run += s[i];
  }
  if (run) parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/**
 * This process's arguments as byte strings. On Linux /proc/self/cmdline has the bytes the
 * shell passed (process.argv has them decoded, invalid bytes replaced); elsewhere process.argv.
 * @returns the arguments after the script name, like `process.argv.slice(2)`.
 */
export function rawArgv(): string[] {
  const n = process.argv.length - 2;
  try {
    const raw = fs.readFileSync('/proc/self/cmdline');
    const words = raw.subarray(0, raw[raw.length - 1] === 0 ? raw.length - 1 : raw.length).toString('latin1').split('\0');
    if (words.length < n) return process.argv.slice(2);
    return words.slice(words.length - n).map((w) => decodeArg(Buffer.from(w, 'latin1')));
  } catch {
    return process.argv.slice(2);
  }
}
