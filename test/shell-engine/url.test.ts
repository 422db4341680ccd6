// Paths and base URLs (engine/src/shell-verbs/url.ts), by resty's rules.
import { describe, expect, it } from 'vitest';
import { appendQuery, buildUrl, encodePath } from '../../engine/src/shell-verbs/url.js';

describe('encodePath', () => {
  it.each([
    ['/users/1', '/users/1'],
    ['/a b', '/a%20b'],
    ['/x?y=z&w', '/x%3Fy%3Dz%26w'],
    ['/a%2Fb/c', '/a%2Fb/c'],
    ['/a%2fb', '/a%2Fb'],
    ['/100%', '/100%25'],
    ['/%20', '/%2520'],
    ['/été', '/%C3%A9t%C3%A9'],
    ['/#frag', '/%23frag'],
    ['/-._~', '/-._~'],
    ['/+:@', '/%2B%3A%40'],
    ['', ''],
  ])('%s -> %s', (path, encoded) => {
    expect(encodePath(path)).toBe(encoded);
  });
});

describe('buildUrl', () => {
  it('replaces every star with the path', () => {
    expect(buildUrl({ base: 'http://h/*/v/*', path: '/p', raw: false, queries: [] })).toBe('http://h//p/v//p');
  });
  it('appends the -q query with ?', () => {
    expect(buildUrl({ base: 'http://h*', path: '/p q', raw: false, queries: ['a=b&c=d'] })).toBe('http://h/p%20q?a=b&c=d');
  });
  it('-Q leaves the path as written', () => {
    expect(buildUrl({ base: 'http://h*', path: '/p?x=1 2', raw: true, queries: [] })).toBe('http://h/p?x=1 2');
  });
  it('a second query joins with &', () => {
    expect(buildUrl({ base: 'http://h*', path: '/p?x=1', raw: true, queries: ['y=2'] })).toBe('http://h/p?x=1&y=2');
  });
  it('-q goes after the part of the base that follows the star (resty appends it to the whole URL)', () => {
    expect(buildUrl({ base: 'http://h/data*.json', path: '/5', raw: false, queries: ['a=b', 'c=d'] })).toBe('http://h/data/5.json?a=b&c=d');
    expect(buildUrl({ base: 'http://h/x?key=k&p=*', path: '/5', raw: false, queries: ['a=b'] })).toBe('http://h/x?key=k&p=/5&a=b');
  });
  it('an empty path leaves the base', () => {
    expect(buildUrl({ base: 'http://h/api*', path: '', raw: false, queries: [] })).toBe('http://h/api');
  });
});

describe('appendQuery', () => {
  it.each([
    ['http://h/p', 'a=1', 'http://h/p?a=1'],
    ['http://h/p?x=1', 'a=1', 'http://h/p?x=1&a=1'],
    ['http://h/p', '', 'http://h/p'],
  ])('%s + %s', (url, q, out) => {
    expect(appendQuery(url, q)).toBe(out);
  });
});
