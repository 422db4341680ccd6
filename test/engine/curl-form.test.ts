// Issue 27 item 4: curl's -F / --form-string carried into a sheet's multipart body (engine/src/curl/form.ts,
// the body form sheets share with .http files), checked on the wire against real curl with a raw
// capture server (./curl-wire.ts; the random boundary is the one thing not compared).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { formBoundary, parseFormArg } from '../../engine/src/curl/form.js';
import { isEngineError } from '../../engine/src/errors.js';
import { wireBench } from './curl-wire.js';

describe('parseFormArg: curl -F words', () => {
  it.each<[string, Partial<ReturnType<typeof parseFormArg>>]>([
    ['a=1', { name: 'a', kind: 'text', value: '1' }],
    ['a=', { name: 'a', kind: 'text', value: '' }],
    ['f=@dir/x.txt', { name: 'f', kind: 'file', value: 'dir/x.txt' }],
    ['g=<x.json', { name: 'g', kind: 'content', value: 'x.json' }],
    ['h=@x.bin;type=image/png;filename=z.png', { kind: 'file', value: 'x.bin', type: 'image/png', filename: 'z.png' }],
    ['t=v; type=text/x', { kind: 'text', value: 'v', type: 'text/x' }],
    ['n="a;b"', { value: 'a;b' }],
    ['q="x\\"y"', { value: 'x"y' }],
    ['x=a;b', { value: 'a', skipped: ['b'] }],
    ['z=@x;headers="X-A: 1"', { kind: 'file', headers: ['X-A: 1'] }],
  ])('-F %s', (arg, expected) => {
    expect(parseFormArg('-F', arg, false)).toMatchObject(expected);
  });

  it('--form-string takes the value as written', () => {
    expect(parseFormArg('--form-string', 's=@x;y', true)).toMatchObject({ kind: 'text', value: '@x;y' });
  });

  it.each([
    ['novalue', /a form part is name=value/],
    ['f=@-', /standard input/],
    ['f=@a,b', /several files/],
    ['f=@a;encoder=base64', /encoder/],
    ['f=@a;headers=@h.txt', /headers read from a file/],
  ])('refuses -F %s, naming it', (arg, message) => {
    let err: unknown;
    try {
      parseFormArg('-F', arg, false);
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err) && err.code).toBe('bad-argument');
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).toContain(arg);
  });

  it('makes a boundary as curl does: 24 dashes and 16 hex digits', () => {
    expect(formBoundary()).toMatch(/^-{24}[0-9a-f]{16}$/);
  });
});

describe('curlToSheet: -F', () => {
  it('writes the multipart body with a < line for a file, and no warning', () => {
    const { text, warnings } = curlToSheet(`curl -F a=1 -F 'f=@/tmp/up.txt' http://h/u`);
    const b = /boundary=(-{24}[0-9a-f]{16})/.exec(text)![1]!;
    expect(text).toBe([
      'POST http://h/u', `Content-Type: multipart/form-data; boundary=${b}`, '',
      `--${b}`, 'Content-Disposition: form-data; name="a"', '', '1',
      `--${b}`, 'Content-Disposition: form-data; name="f"; filename="up.txt"', 'Content-Type: text/plain', '', '< /tmp/up.txt',
      `--${b}--`, '', '',
    ].join('\n'));
    expect(warnings).toEqual([]);
  });

  it.each([
    [`curl -F a=1 -d x=1 http://h/`, /with data/],
    [`curl -G -F a=1 http://h/`, /with -G/],
    [`curl -F 'a=#1' http://h/`, /starts with #/],
    [`curl -F $'a=1\\n2' http://h/`, /line break/],
    [`curl -H 'Content-Type: application/json' -F a=1 http://h/`, /Content-Type application\/json/],
  ])('refuses %s (exit 2), naming why', (command, message) => {
    expect(() => curlToSheet(command)).toThrow(message);
  });
});

describe('-F on the wire: the sheet sends what curl sends', () => {
  let bench: Awaited<ReturnType<typeof wireBench>>;
  beforeAll(async () => {
    bench = await wireBench({ 'up.txt': 'hello\r\nworld\n', 'logo.png': '\x89PNG\r\n\x1a\n', 'data.json': '{"a":1}\n', 'a b.csv': 'x,y\n1,2\n' });
  });
  afterAll(() => bench.close());

  it.each([
    ['text fields', `curl -F name=ada -F 'empty=' http://example.org/f`],
    ['a file upload, its type guessed from the name', `curl -F 'file=@up.txt' http://example.org/f`],
    ['an unknown extension is application/octet-stream', `curl -F 'data=@data.json' http://example.org/f`],
    ['type and filename given', `curl -F 'img=@logo.png;type=image/x-png;filename=me.png' -F 'meta=x;type=text/x' http://example.org/f`],
    ['a field read from a file (<)', `curl -F 'doc=<data.json' http://example.org/f`],
    ['quotes, an escaped quote, a skipped parameter', `curl -F 'n="a;b"' -F 'q="x\\"y"' -F 'x=a;b' http://example.org/f`],
    ['--form-string keeps @ and ;', `curl --form-string 's=@x;y' http://example.org/f`],
    ['a part header, a file name with a blank', `curl -F 'f=@"a b.csv";headers="X-Part: 1"' http://example.org/f`],
    ['-X PUT with -F', `curl -X PUT -F a=1 http://example.org/f`],
    ['-H with another multipart type', `curl -H 'Content-Type: multipart/mixed' -F a=1 http://example.org/f`],
    ['a quote in a name', `curl -F 'na"me=1' http://example.org/f`],
  ])('%s: identical', async (_, command) => {
    const r = await bench.run(command);
    expect(r.importErr.replace(/^sheet import-curl: note: .*\n/gm, '')).toBe('');
    expect(r.importExit).toBe(0);
    expect(r.curl).toBeDefined();
    expect(r.differences).toEqual([]);
    expect(r.runExit).toBe(0);
  });
});
