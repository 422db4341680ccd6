// Issue 27, item 4: options carried into the sheet request as curl sends them: -r as curl's
// Range header; -d @file without the file's line breaks and --data-urlencode's file forms
// (the file read by the caller, its data written into the body), --data-binary @file as a
// `< file` body; -b FILE's cookies for the URL as a Cookie header (-j: without session cookies);
// -c a note. What cannot be carried (a cookie file the import cannot read) is a difference,
// exit 1. On the wire (./curl-wire.ts): each against real curl and a raw capture server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { wireBench } from './curl-wire.js';

const files: Record<string, string> = {
  'f.txt': 'a=1\r\n&b=2\n',
  'one.txt': 'x=1&y=2',
  'q.txt': 'caf\u00e9 & more\nline\n',
  '#h.txt': '#not a comment\n',
};
const read = (name: string) => (name in files ? new TextEncoder().encode(files[name]!) : undefined);

describe('options carried, or named', () => {
  it.each<[string, string, string, [RegExp, boolean][]]>([
    ['-r is a Range header', 'curl -r 0-99 http://h/f', 'GET http://h/f\nRange: bytes=0-99\n', []],
    ['--range with several ranges', 'curl --range 0-9,20- http://h/f', 'GET http://h/f\nRange: bytes=0-9,20-\n', []],
    ['-r with a Range header of its own', `curl -r 0-1 -H 'Range: bytes=5-' http://h/f`, 'GET http://h/f\nRange: bytes=5-\n', []],
    ['-c and -j: notes', 'curl -c jar.txt -j http://h/c', 'GET http://h/c\n', [[/^-c jar\.txt: not carried over \(it changes what curl does/, false], [/^-j: carried/, false]]],
    ['-b FILE without a reader: a difference', 'curl -b cookies.txt http://h/c', 'GET http://h/c\n', [[/^-b cookies\.txt: the cookie file is not read here.*sheet run --cookie-jar cookies\.txt/, true]]],
    ['-d @file without a reader: a difference', 'curl -d @/tmp/f.txt http://h/f', 'POST http://h/f\nContent-Type: application/x-www-form-urlencoded\n\n< /tmp/f.txt\n', [[/drops the file's line breaks/, true]]],
    ['--data-binary @file keeps them: no warning', 'curl --data-binary @/tmp/f.txt http://h/f', 'POST http://h/f\nContent-Type: application/x-www-form-urlencoded\n\n< /tmp/f.txt\n', []],
  ])('%s', (_, command, text, warnings) => {
    const out = curlToSheet(command);
    expect(out.text).toBe(text);
    expect(out.warnings).toEqual(warnings.map(([m, differs]) => ({ message: expect.stringMatching(m), differs })));
  });

  it.each<[string, string, string, RegExp[]]>([
    ['-d @file: the data without CR and LF, in the body', 'curl -d @f.txt http://h/f', 'a=1&b=2', [/without its line breaks/]],
    ['-d @file without line breaks stays a file body', 'curl -d @one.txt http://h/f', '< one.txt', [/relative to the sheet file's directory/]],
    ['-d @file joined with other data', 'curl -d @one.txt -d z=3 http://h/f', 'x=1&y=2&z=3', [/without its line breaks/]],
    ['--data-urlencode name@file', 'curl --data-urlencode q@q.txt http://h/f', 'q=caf%C3%A9+%26+more%0Aline%0A', [/URL-encoded/]],
    ['--data-urlencode @file', 'curl --data-urlencode @q.txt http://h/f', 'caf%C3%A9+%26+more%0Aline%0A', [/URL-encoded/]],
    ['--data-raw takes @ literally', 'curl --data-raw @f.txt http://h/f', '@f.txt', []],
  ])('%s', (_, command, body, notes) => {
    const out = curlToSheet(command, { readFile: read });
    expect(out.text.split('\n\n')[1]!.replace(/\n$/, '')).toBe(body);
    expect(out.warnings.filter((w) => w.differs)).toEqual([]);
    for (const n of notes) expect(out.warnings.map((w) => w.message).join('\n')).toMatch(n);
  });

  it('a file body a sheet cannot hold inline stays < file, and the difference is said', () => {
    const out = curlToSheet('curl -d @#h.txt http://h/f', { readFile: read });
    expect(out.text).toContain('\n< #h.txt\n');
    expect(out.warnings.filter((w) => w.differs).map((w) => w.message)).toEqual([expect.stringMatching(/drops the file's line breaks/)]);
  });
});

describe('on the wire', () => {
  let bench: Awaited<ReturnType<typeof wireBench>>;
  beforeAll(async () => {
    bench = await wireBench(files);
    const jar = [
      '# Netscape HTTP Cookie File',
      ['127.0.0.1', 'FALSE', '/', 'FALSE', '0', 'session', 's1'].join('\t'),
      ['127.0.0.1', 'FALSE', '/', 'FALSE', '4102444800', 'kept', 'k1'].join('\t'),
      ['127.0.0.1', 'FALSE', '/other', 'FALSE', '4102444800', 'elsewhere', 'e1'].join('\t'),
      ['example.org', 'FALSE', '/', 'FALSE', '4102444800', 'foreign', 'f1'].join('\t'),
      '',
    ].join('\n');
    fs.writeFileSync(path.join(bench.dir, 'cookies.txt'), jar);
  });
  afterAll(() => bench.close());

  it('-r sends what curl sends, exit 0', async () => {
    const r = await bench.run('curl -r 0-99 http://example.org/f');
    expect(r.importExit).toBe(0);
    expect(r.differences).toEqual([]);
  });

  it.each([
    ['-d @file (CR and LF dropped)', 'curl -d @f.txt http://example.org/f'],
    ['-d @file with other data', 'curl -d @one.txt -d z=3 http://example.org/f'],
    ['--data-ascii @file', 'curl --data-ascii @f.txt http://example.org/f'],
    ['--data-binary @file (kept)', 'curl --data-binary @f.txt http://example.org/f'],
    ['--data-urlencode name@file', 'curl --data-urlencode q@q.txt http://example.org/f'],
    ['--data-urlencode @file', 'curl --data-urlencode @q.txt http://example.org/f'],
    ['--data-raw @ as written', 'curl --data-raw @f.txt http://example.org/f'],
    ['-b FILE: its cookies for the URL', 'curl -b cookies.txt http://example.org/c'],
    ['-b FILE -j: without session cookies', 'curl -b cookies.txt -j http://example.org/c'],
    ['-b FILE and -b name=value', `curl -b cookies.txt -b 'x=1' http://example.org/c`],
  ])('%s: identical, exit 0', async (_, command) => {
    const r = await bench.run(command);
    expect(r.curl).toBeDefined();
    expect(r.differences).toEqual([]);
    expect(r.importExit).toBe(0);
  });

  it.each([
    ['-b of a missing file: curl reads no cookies either', 'curl -b missing.txt http://example.org/c', /holds no cookie for this URL \(or cannot be read/],
    ['-d @ a missing file: curl sends no data either', 'curl -d @missing.txt http://example.org/f', /empty, missing or unreadable here/],
  ])('%s: identical, exit 0, a note', async (_, command, message) => {
    const r = await bench.run(command);
    expect(r.differences).toEqual([]);
    expect(r.importExit).toBe(0);
    expect(r.importErr).toMatch(message);
  });

  it('a -b FILE that cannot be read here is a difference named, exit 1', async () => {
    // Over the 1 MiB the import reads: one cookie for this URL, then comment lines.
    fs.writeFileSync(path.join(bench.dir, 'big.txt'), ['127.0.0.1', 'FALSE', '/', 'FALSE', '0', 'big', 'b1'].join('\t') + '\n' + '#\n'.repeat(600_000));
    const r = await bench.run('curl -b big.txt http://example.org/c');
    expect(r.importExit).toBe(1);
    expect(r.importErr).toMatch(/-b big\.txt: the cookie file cannot be read here \(over 1 MiB\)/);
    expect(r.differences).not.toEqual([]);
  });
});
