// The curl option table (engine/src/curl/options.ts) and the option-file word splitter.
import { describe, expect, it } from 'vitest';
import { parseCurlOptions, takesNextWord } from '../../engine/src/curl/options.js';
import { splitShellWords } from '../../engine/src/curl/words.js';

describe('parseCurlOptions', () => {
  const cases: Array<[string, string[], Record<string, unknown>]> = [
    ['-H adds a header', ['-H', 'X-A: 1'], { headers: [['X-A', '1']] }],
    ['--header, value trimmed', ['--header', 'X-A:   two words '], { headers: [['X-A', 'two words']] }],
    ['-H "Name;" sends an empty header', ['-H', 'X-Empty;'], { headers: [['X-Empty', '']] }],
    ['-H "Name:" removes a header', ['-H', 'X-A: 1', '-H', 'Accept:', '-H', 'X-A:'], { headers: [], removeHeaders: ['accept', 'x-a'] }],
    ['-u', ['-u', 'me:pw'], { user: 'me:pw' }],
    ['-d repeated', ['-d', 'a=1', '--data', 'b=2'], { data: [{ kind: 'data', value: 'a=1' }, { kind: 'data', value: 'b=2' }] }],
    ['--data-raw, --data-binary, --data-urlencode, --data-ascii', ['--data-raw', '@x', '--data-binary', '@f', '--data-urlencode', 'q=a b', '--data-ascii', 'z'], {
      data: [
        { kind: 'raw', value: '@x' },
        { kind: 'binary', value: '@f' },
        { kind: 'urlencode', value: 'q=a b' },
        { kind: 'ascii', value: 'z' },
      ],
    }],
    ['--json', ['--json', '{}'], { data: [{ kind: 'json', value: '{}' }] }],
    ['-G', ['-G'], { get: true }],
    ['-X attached', ['-XPUT'], { method: 'PUT' }],
    ['-X separate', ['--request', 'PATCH'], { method: 'PATCH' }],
    ['bundled booleans', ['-sSLkiv'], { silent: true, location: true, insecure: true, include: true, verbose: true }],
    ['bundle ending in an option with argument', ['-sHX-A: 1'], { silent: true, headers: [['X-A', '1']] }],
    ['-I', ['-I'], { head: true }],
    ['-o', ['-o', 'out.bin'], { output: 'out.bin' }],
    ['-b with = is a cookie string', ['-b', 'a=b'], { cookieStrings: ['a=b'], cookieFiles: [] }],
    ['-b without = is a file', ['-b', 'jar.txt'], { cookieStrings: [], cookieFiles: ['jar.txt'] }],
    ['-c', ['-c', 'out.jar'], { cookieJar: 'out.jar' }],
    ['-j', ['-j'], { junkSession: true }],
    ['--max-time', ['--max-time', '2.5'], { maxTime: 2.5 }],
    ['-m', ['-m', '3'], { maxTime: 3 }],
    ['--max-redirs', ['--max-redirs', '4'], { maxRedirs: 4 }],
    ['-A and -e become headers', ['-A', 'ua/1', '-e', 'http://ref'], { headers: [['User-Agent', 'ua/1'], ['Referer', 'http://ref']] }],
    ['--no-verbose switches -v off', ['-v', '--no-verbose'], { verbose: false }],
    ['unknown long option keeps its argument', ['--retry', '3', '-H', 'X: y'], { unknown: ['--retry', '3'], headers: [['X', 'y']] }],
    ['unknown flag', ['--http1.1'], { unknown: ['--http1.1'] }],
    ['--compressed is the engine\'s', ['--compressed'], { compressed: true, unknown: [] }],
    ['-T file', ['-T', 'f.bin'], { uploadFile: 'f.bin', unknown: [] }],
    ['unknown short option', ['-r', '0-9'], { unknown: ['-r', '0-9'] }],
    ['unknown options keep their order', ['--http1.1', '-H', 'A: b', '--retry-delay', '1'], { unknown: ['--http1.1', '--retry-delay', '1'] }],
  ];
  for (const [name, argv, expected] of cases) {
    it(name, () => {
      expect(parseCurlOptions(argv)).toMatchObject(expected);
    });
  }

  it.each([
    [['-H'], 'bad-option'],
    [['-H', 'no colon'], 'bad-option'],
    [['--max-time', 'soon'], 'bad-option'],
    [['stray'], 'bad-argument'],
    [['-sr'], 'bad-option'],
  ])('%j fails with %s', (argv, code) => {
    expect(() => parseCurlOptions(argv as string[])).toThrowError(expect.objectContaining({ code }));
  });
});

describe('splitShellWords', () => {
  it.each([
    ['-H "X-A: 1"', ['-H', 'X-A: 1']],
    ["-H 'a b' -u me:pw", ['-H', 'a b', '-u', 'me:pw']],
    ['a\\ b c', ['a b', 'c']],
    ['"q\\"uote" \'lit\\eral\'', ['q"uote', 'lit\\eral']],
    ['ab"cd"\'ef\'', ['abcdef']],
    ["$'tab\\there' x", ['tab\there', 'x']],
    ['"$HOME" $(ls)', ['$HOME', '$(ls)']],
    ['  spaced   out  ', ['spaced', 'out']],
    ['-H "" x', ['-H', '', 'x']],
    ['a # comment', ['a']],
    ['a#b', ['a#b']],
    ['', []],
  ])('%s', (line, words) => {
    expect(splitShellWords(line)).toEqual(words);
  });

  it.each(['"open', "'open", "$'open"])('unterminated %s is an error', (line) => {
    expect(() => splitShellWords(line)).toThrowError(expect.objectContaining({ code: 'bad-argument' }));
  });
});

describe('takesNextWord', () => {
  it.each([
    ['-H', true],
    ['--header', true],
    ['-sH', true],
    ['-HX: y', false],
    ['-s', false],
    ['--compressed', false],
    ['-G', false],
    ['--max-time', true],
    ['x', false],
  ])('%s -> %s', (w, expected) => {
    expect(takesNextWord(w)).toBe(expected);
  });
});
