// Issue 27, item 4 in part: -r carried as curl's Range header; the cookie-file options say
// whether the request still is curl's (-c and -j: a note, -b FILE: a difference); -d @file and
// -F still named as differences (the import reads no file, and the sheet has no multipart body).
// On the wire (./curl-wire.ts): -r against a raw capture server, both ways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { wireBench } from './curl-wire.js';

describe('options carried, or named', () => {
  it.each<[string, string, string, [RegExp, boolean][]]>([
    ['-r is a Range header', 'curl -r 0-99 http://h/f', 'GET http://h/f\nRange: bytes=0-99\n', []],
    ['--range with several ranges', 'curl --range 0-9,20- http://h/f', 'GET http://h/f\nRange: bytes=0-9,20-\n', []],
    ['-r with a Range header of its own', `curl -r 0-1 -H 'Range: bytes=5-' http://h/f`, 'GET http://h/f\nRange: bytes=5-\n', []],
    ['-c and -j: notes', 'curl -c jar.txt -j http://h/c', 'GET http://h/c\n', [[/^-c jar\.txt: not carried over \(it changes what curl does/, false], [/^-j: /, false]]],
    ['-b FILE: a difference', 'curl -b cookies.txt http://h/c', 'GET http://h/c\n', [[/^-b cookies\.txt: cookies from a file/, true]]],
    ['-d @file: curl drops the line breaks, a difference', 'curl -d @/tmp/f.txt http://h/f', 'POST http://h/f\nContent-Type: application/x-www-form-urlencoded\n\n< /tmp/f.txt\n', [[/drops the file's line breaks/, true]]],
    ['--data-binary @file keeps them: no warning', 'curl --data-binary @/tmp/f.txt http://h/f', 'POST http://h/f\nContent-Type: application/x-www-form-urlencoded\n\n< /tmp/f.txt\n', []],
  ])('%s', (_, command, text, warnings) => {
    const out = curlToSheet(command);
    expect(out.text).toBe(text);
    expect(out.warnings).toEqual(warnings.map(([m, differs]) => ({ message: expect.stringMatching(m), differs })));
  });
});

describe('on the wire', () => {
  let bench: Awaited<ReturnType<typeof wireBench>>;
  beforeAll(async () => {
    bench = await wireBench();
  });
  afterAll(() => bench.close());

  it('-r sends what curl sends, exit 0', async () => {
    const r = await bench.run('curl -r 100-199 http://example.org/big.bin');
    expect(r.importExit).toBe(0);
    expect(r.differences).toEqual([]);
    expect(r.curl!.headers).toContainEqual(['Range', 'bytes=100-199']);
  });
});
