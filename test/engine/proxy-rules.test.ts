// curl's proxy rules (engine/src/http/proxy.ts) as tables. The NO_PROXY rows were checked
// against curl 7.88 (`NO_PROXY=... curl -x http://127.0.0.1:9 URL` and whether it tried the
// proxy), and the last test asks the installed curl again for a few of them.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bypassesProxy, chooseProxy, parseNoProxy, parseProxyUrl } from '../../engine/src/http/proxy.js';
import { isEngineError } from '../../engine/src/errors.js';

const bypass = (list: string, url: string) => bypassesProxy(new URL(url).hostname, parseNoProxy(list, 'NO_PROXY'));

describe('NO_PROXY matching (CURLOPT_NOPROXY)', () => {
  it.each([
    ['example.invalid', 'http://example.invalid/', true],
    ['invalid', 'http://example.invalid/', true],
    ['.invalid', 'http://example.invalid/', true],
    ['EXAMPLE.INVALID', 'http://example.invalid/', true],
    ['example.invalid.', 'http://example.invalid/', true],
    ['example.invalid', 'http://example.invalid.:8080/', true],
    ['xample.invalid', 'http://example.invalid/', false],
    ['example.com', 'http://example.com.invalid/', false],
    ['*', 'http://example.invalid/', true],
    [' * ', 'http://example.invalid/', true],
    ['foo bar.invalid', 'http://bar.invalid/', true],
    ['foo, bar.invalid', 'http://bar.invalid/', true],
    ['foo,,bar.invalid', 'http://bar.invalid/', true],
    ['127.0.0.1', 'http://127.0.0.2:1/', false],
    ['127.0.0.2', 'http://127.0.0.2:1/', true],
    ['127.0.0.0/8', 'http://127.0.0.2:1/', true],
    ['10.0.0.0/8', 'http://127.0.0.2:1/', false],
    ['127.0.0.2/0', 'http://127.0.0.2/', true],
    ['::1', 'http://[::1]:1/', true],
    ['0:0::1', 'http://[::1]:1/', true],
    ['fd00::/8', 'http://[fd12::1]/', true],
    ['localhost', 'http://127.0.0.1:1/', false],
    ['127.0.0.1', 'http://localhost/', false],
    ['', 'http://example.invalid/', false],
  ])('%j for %s: bypass %s', (list, url, expected) => {
    expect(bypass(list, url)).toBe(expected);
  });

  it.each([
    ['example.invalid:80', /ports/],
    ['127.0.0.2:1', /ports/],
    ['foo,*', /wildcards/],
    ['*.invalid', /wildcards/],
    ['[::1]', /brackets/],
    ['http://example.invalid', /not a URL/],
    ['127.0.0.0/40', /prefix length/],
    ['::1/129', /prefix length/],
    ['a@b', /not a host name/],
  ])('%j is malformed: an error naming the variable', (list, why) => {
    let err: unknown;
    try {
      parseNoProxy(list, 'no_proxy');
    } catch (e) {
      err = e;
    }
    expect(isEngineError(err) && err.code).toBe('bad-proxy');
    expect((err as Error).message).toMatch(/^no_proxy: /);
    expect((err as Error).message).toMatch(why);
  });
});

describe('proxy URLs (curl -x)', () => {
  it.each([
    ['127.0.0.1:3128', 'http://127.0.0.1:3128', undefined],
    ['127.0.0.1', 'http://127.0.0.1:1080', undefined],
    ['http://proxy.invalid', 'http://proxy.invalid:1080', undefined],
    ['http://proxy.invalid:80', 'http://proxy.invalid:80', undefined],
    ['https://proxy.invalid', 'https://proxy.invalid:443', undefined],
    ['http://[::1]:3128/', 'http://[::1]:3128', undefined],
    ['http://u%40x:p%3Aw@proxy.invalid:3128', 'http://proxy.invalid:3128', `Basic ${Buffer.from('u@x:p:w').toString('base64')}`],
    ['u:p@proxy.invalid:8080', 'http://proxy.invalid:8080', `Basic ${Buffer.from('u:p').toString('base64')}`],
  ])('%s is %s', (text, origin, auth) => {
    const p = parseProxyUrl(text, '--proxy');
    expect(p.origin).toBe(origin);
    expect(p.auth).toBe(auth);
  });

  it.each([['http://[::1'], ['ftp://proxy.invalid'], ['socks5://127.0.0.1:1080'], ['http://']])('%s is refused, naming the variable', (text) => {
    expect(() => parseProxyUrl(text, 'https_proxy')).toThrow(/^https_proxy: /);
  });
});

describe('which proxy (curl ENVIRONMENT)', () => {
  const pick = (url: string, env: Record<string, string>, o: { proxy?: string; noProxy?: string; proxyUser?: string } = {}) => {
    const c = chooseProxy(new URL(url), { ...o, env });
    return c ? `${c.origin} ${c.source}${c.auth ? ` ${c.auth}` : ''}` : 'direct';
  };
  it.each([
    ['http://h.invalid/', {}, {}, 'direct'],
    ['http://h.invalid/', { http_proxy: 'a:1' }, {}, 'http://a:1 http_proxy'],
    ['http://h.invalid/', { HTTP_PROXY: 'a:1' }, {}, 'direct'],
    ['http://h.invalid/', { HTTP_PROXY: 'a:1', ALL_PROXY: 'b:2' }, {}, 'http://b:2 ALL_PROXY'],
    ['https://h.invalid/', { http_proxy: 'a:1' }, {}, 'direct'],
    ['https://h.invalid/', { https_proxy: 'a:1', HTTPS_PROXY: 'b:2' }, {}, 'http://a:1 https_proxy'],
    ['https://h.invalid/', { HTTPS_PROXY: 'b:2' }, {}, 'http://b:2 HTTPS_PROXY'],
    ['https://h.invalid/', { https_proxy: '', HTTPS_PROXY: 'b:2' }, {}, 'http://b:2 HTTPS_PROXY'],
    ['https://h.invalid/', { all_proxy: 'c:3', ALL_PROXY: 'd:4' }, {}, 'http://c:3 all_proxy'],
    ['http://h.invalid/', { http_proxy: 'a:1' }, { proxy: 'x:9' }, 'http://x:9 --proxy'],
    ['http://h.invalid/', { http_proxy: 'a:1', NO_PROXY: 'h.invalid' }, {}, 'direct'],
    ['http://h.invalid/', { http_proxy: 'a:1', no_proxy: 'other', NO_PROXY: 'h.invalid' }, {}, 'http://a:1 http_proxy'],
    ['http://h.invalid/', { NO_PROXY: 'h.invalid' }, { proxy: 'x:9' }, 'direct'],
    ['http://h.invalid/', { http_proxy: 'a:1', NO_PROXY: 'h.invalid' }, { noProxy: '' }, 'http://a:1 http_proxy'],
    ['http://h.invalid/', { http_proxy: 'a:1' }, { noProxy: '*' }, 'direct'],
    ['http://h.invalid/', { http_proxy: 'u:p@a:1' }, {}, `http://a:1 http_proxy Basic ${btoa('u:p')}`],
    ['http://h.invalid/', { http_proxy: 'u:p@a:1' }, { proxyUser: 'v:q' }, `http://a:1 http_proxy Basic ${btoa('v:q')}`],
  ])('%s with %j and %j: %s', (url, env, o, expected) => {
    expect(pick(url, env, o)).toBe(expected);
  });

  it('a malformed NO_PROXY matters only when a proxy would be used', () => {
    expect(pick('http://h.invalid/', { NO_PROXY: 'h:80' })).toBe('direct');
    expect(() => pick('http://h.invalid/', { http_proxy: 'a:1', NO_PROXY: 'h:80' })).toThrow(/^NO_PROXY: curl matches host names, never ports/);
  });

  it('agrees with the installed curl on a few rows', () => {
    // curl -x to a closed port: "Trying 127.0.0.1:9" means it went to the proxy.
    const viaProxy = (noProxy: string, url: string) => {
      let out = '';
      try {
        execFileSync('curl', ['-sv', '--max-time', '2', '-x', 'http://127.0.0.1:9', url], { env: { ...process.env, NO_PROXY: noProxy, no_proxy: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
      } catch (e) {
        out = String((e as { stderr?: Buffer }).stderr ?? '');
      }
      return out.includes('Trying 127.0.0.1:9...');
    };
    for (const [list, url] of [
      ['.invalid', 'http://example.invalid/'],
      ['xample.invalid', 'http://example.invalid/'],
      ['127.0.0.0/8', 'http://127.0.0.2:1/'],
      ['127.0.0.1', 'http://127.0.0.2:1/'],
      ['::1', 'http://[::1]:1/'],
    ] as const) {
      expect(viaProxy(list, url), `${list} ${url}`).toBe(!bypass(list, url));
    }
  });
});
