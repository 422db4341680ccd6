/**
 * The date and time system variables of `.http` files, as VS Code REST Client computes them
 * (its systemVariableProvider.ts, on Day.js, which this uses too):
 * - `{{$timestamp [offset unit]}}`: Unix time in seconds;
 * - `{{$datetime rfc1123|iso8601|"FORMAT" [offset unit]}}`: UTC (`Date#toUTCString`,
 *   `Date#toISOString`, or Day.js's `format` tokens: `"DD.MM.YYYY HH:mm"`);
 * - `{{$localDatetime ...}}`: the same in local time (`ddd, DD MMM YYYY HH:mm:ss ZZ`, Day.js's
 *   default `format()`: `2024-01-02T04:04:05+01:00`);
 * - JetBrains' `{{$isoTimestamp}}` (UTC, ISO 8601) and kulala.nvim's `{{$date}}` (local `YYYY-MM-DD`).
 * Offsets add `n` units: y, Q, M, w, d, h, m, s, ms (Day.js's `add`, in UTC for `$timestamp`
 * and `$datetime`, in local time for `$localDatetime`). A format is quoted with `"` or `'`.
 */
import dayjs, { type Dayjs, type ManipulateType } from 'dayjs';
import quarterOfYear from 'dayjs/plugin/quarterOfYear.js';
import utc from 'dayjs/plugin/utc.js';
import { EngineError } from '../errors.js';

dayjs.extend(utc);
dayjs.extend(quarterOfYear);

/** REST Client's offset units (its `datetimeRegex`). */
const UNITS = new Set(['y', 'Q', 'M', 'w', 'd', 'h', 'm', 's', 'ms']);

/** The date variables this file computes. */
export const DATE_VARIABLES: ReadonlySet<string> = new Set(['$timestamp', '$isoTimestamp', '$date', '$datetime', '$localDatetime']);

/**
 * The value of the date variable `name` (one of {@link DATE_VARIABLES}) with its arguments.
 * @param expr the whole `{{...}}` text, for messages.
 * @param args the words after the name, quotes kept (`"DD.MM.YYYY"`, `-1`, `d`).
 * @param now the current time.
 * @throws EngineError `bad-argument` (a missing format, an offset that is not a number and a
 *   unit), naming `line`.
 */
export function dateVariable(name: string, args: string[], expr: string, now: Date, line?: number): string {
  const bad = (hint: string) => new EngineError('bad-argument', `{{${expr}}}: bad arguments`, { line, hint });
  const shifted = (d: Dayjs, n?: string, unit?: string): Dayjs => {
    if (n === undefined) return d;
    if (!/^-?\d+$/.test(n) || !unit || !UNITS.has(unit)) throw bad('Write an offset as a number and a unit: y, Q, M, w, d, h, m, s, ms (e.g. -1 d).');
    return d.add(Number(n), unit as ManipulateType);
  };
  switch (name) {
    case '$timestamp':
      return String(shifted(dayjs.utc(now), args[0], args[1]).unix());
    case '$isoTimestamp':
      return now.toISOString();
    case '$date':
      return dayjs(now).format('YYYY-MM-DD');
    default: {
      const fmt = args[0];
      if (!fmt) throw bad(`Write {{${name} rfc1123}}, {{${name} iso8601}} or {{${name} "DD.MM.YYYY"}}, optionally with an offset.`);
      const local = name === '$localDatetime';
      const d = shifted(local ? dayjs(now) : dayjs.utc(now), args[1], args[2]);
      if (fmt === 'rfc1123') return local ? d.locale('en').format('ddd, DD MMM YYYY HH:mm:ss ZZ') : d.toDate().toUTCString();
      if (fmt === 'iso8601') return local ? d.format() : d.toISOString();
      const custom = /^(["'])(.+)\1$/.exec(fmt);
      if (!custom) throw bad(`Write the format as rfc1123, iso8601 or in quotes: {{${name} "DD.MM.YYYY"}} (Day.js tokens).`);
      // `yyyy-MM-dd` is a .NET or Java pattern: Day.js would keep `yyyy` as text and read `dd`
      // as a weekday, a silently wrong date; refuse it instead.
      if (/yy/.test(custom[2]!.replace(/\[[^\]]*\]/g, ''))) {
        throw new EngineError('unsupported-construct', `{{${expr}}}: ${custom[2]} is a .NET or Java date pattern, not Day.js tokens`, {
          line,
          hint: 'Write the format in Day.js tokens, as VS Code REST Client reads it: YYYY for the year, DD for the day (e.g. "YYYY-MM-DD").',
        });
      }
      return d.format(custom[2]);
    }
  }
}
