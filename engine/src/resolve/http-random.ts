/**
 * JetBrains HTTP Client's `$random` dynamic variables (the HTTP Client's published API stubs,
 * `http-client.dynamic-variables`, "RandomVariables"), in `{{...}}` of `.http` files:
 *
 * - `$random.alphabetic(length)`: upper- and lower-case letters;
 * - `$random.alphanumeric(length)`: letters, digits and `_`;
 * - `$random.hexadecimal(length)`: `0-9A-F`; `$random.numeric(length)` (httpyac): digits;
 * - `$random.integer()` 0..1000, `(to)` 0..to, `(from, to)`: from inclusive, to exclusive;
 * - `$random.float()`, `(to)`, `(from, to)`: likewise, a float;
 * - `$random.email`, `$random.uuid`.
 *
 * Values come from `node:crypto` (`randomInt`, `randomUUID`). The Faker-based generators
 * (`$random.name.firstName`, `$random.address.city`, ...) are not implemented: a located error
 * names them.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { EngineError } from '../errors.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CHARS: Record<string, string> = {
  alphabetic: LETTERS,
  alphanumeric: `${LETTERS}0123456789_`,
  hexadecimal: '0123456789ABCDEF',
  numeric: '0123456789',
};

const text = (chars: string, n: number) => Array.from({ length: n }, () => chars[randomInt(chars.length)]).join('');

/**
 * The value of `{{expr}}` when `expr` starts with `$random.` (e.g. `$random.alphabetic(6)`,
 * `$random.integer(1, 10)`, `$random.email`).
 * @throws EngineError `bad-argument` for bad arguments (a length that is not a whole number
 *   above 0, bounds out of order), `unsupported-construct` for a generator not implemented.
 */
export function randomVariable(expr: string, line?: number): string {
  const m = /^\$random\.([A-Za-z][\w.]*)[ \t]*(?:\((.*)\))?$/.exec(expr.trim());
  const name = m?.[1] ?? expr;
  const args = m?.[2]?.trim() ? m[2].split(',').map((a) => a.trim()) : [];
  const bad = (hint: string) => new EngineError('bad-argument', `{{${expr}}}: bad arguments`, { line, hint });
  const nums = args.map(Number);
  if (m && CHARS[name]) {
    const n = nums[0];
    if (args.length !== 1 || !Number.isInteger(n) || n! <= 0 || n! > 1_000_000) throw bad(`Write {{$random.${name}(length)}} with a whole length above 0.`);
    return text(CHARS[name]!, n!);
  }
  if (m && (name === 'integer' || name === 'float')) {
    if (args.length > 2 || nums.some((x) => !Number.isFinite(x))) throw bad(`Write {{$random.${name}()}}, {{$random.${name}(to)}} or {{$random.${name}(from, to)}}.`);
    const [from, to] = args.length === 2 ? nums : [0, args.length ? nums[0]! : 1000];
    if (!(from! < to!)) throw bad(`The lower bound must be below the upper bound: {{$random.${name}(from, to)}}.`);
    if (name === 'float') return String(from! + Math.random() * (to! - from!));
    if (!Number.isInteger(from) || !Number.isInteger(to)) throw bad('Write {{$random.integer(from, to)}} with whole numbers.');
    return String(randomInt(from!, to!));
  }
  if (m && !args.length && name === 'email') return `${text(`${LETTERS.slice(26)}0123456789`, 10)}@${text(LETTERS.slice(26), 8)}.com`;
  if (m && !args.length && name === 'uuid') return randomUUID();
  throw new EngineError('unsupported-construct', `system variable $random.${name} is not supported`, {
    line,
    hint: 'Supported: $random.alphabetic(n), alphanumeric(n), hexadecimal(n), numeric(n), integer(from, to), float(from, to), email, uuid (docs/http-files.md).',
    details: { variable: `$random.${name}` },
  });
}
