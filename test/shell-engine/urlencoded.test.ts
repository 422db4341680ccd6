// The daemon's urlencoded call fields (engine/src/shell-verbs/urlencoded.ts), as
// `curl --data-urlencode` writes them: bytes as sent, `+` a space, a `%` without two hex
// digits kept as it is.
import { describe, expect, it } from 'vitest';
import { parseUrlencoded } from '../../engine/src/shell-verbs/urlencoded.js';

const parse = (body: string) => parseUrlencoded(Buffer.from(body, 'latin1')).map((f) => [f.name, [...f.data]]);
const bytes = (s: string) => [...Buffer.from(s, 'latin1')];

describe('parseUrlencoded', () => {
  it.each([
    ['a=GET', [['a', bytes('GET')]]],
    ['PATH=%2Fusr%2Fbin%3A%2Fbin', [['PATH', bytes('/usr/bin:/bin')]]],
    ['a=%c3%A9t%C3%a9', [['a', [0xc3, 0xa9, 0x74, 0xc3, 0xa9]]]],
    ['a=%FF%00%80', [['a', [0xff, 0x00, 0x80]]]],
    ['a=x+y%2B', [['a', bytes('x y+')]]],
    ['a=100%', [['a', bytes('100%')]]],
    ['a=%4', [['a', bytes('%4')]]],
    ['a=%zz%4g', [['a', bytes('%zz%4g')]]],
    ['a=%%41', [['a', bytes('%A')]]],
    ['a=&a=%26%3D&cwd', [['a', []], ['a', bytes('&=')], ['cwd', []]]],
    ['n%61me=v', [['name', bytes('v')]]],
    ['', []],
  ])('%s', (body, fields) => {
    expect(parse(body)).toEqual(fields);
  });
});
