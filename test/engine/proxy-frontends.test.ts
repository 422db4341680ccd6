// Proxies in the engine's front ends other than the shell (docs/networks.md): the JSON-RPC
// `proxy` setting (sheet-mode's url-proxy-services, or one proxy as curl -x), the engine's
// environment, and `sheet run --proxy` / `--noproxy` / http_proxy, each checked in the log of a
// real proxy (Debian's tinyproxy, test/fixtures/proxy.mjs). Also url.el's no_proxy regexps.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, spawnEngine, startApi, tempDir, type Api } from './helpers.js';
import { emacsRegexp, proxyOptions } from '../../engine/src/session/proxy-setting.js';
import { chooseProxy } from '../../engine/src/http/proxy.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';

let api: Api;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };
let dir: string;

/** No proxy variable of the machine running the tests leaks into the processes under test. */
const CLEAN = { http_proxy: undefined, https_proxy: undefined, HTTPS_PROXY: undefined, all_proxy: undefined, ALL_PROXY: undefined, no_proxy: undefined, NO_PROXY: undefined };

beforeAll(async () => {
  api = await startApi();
  proxy = await startProxy();
  dir = tempDir('proxy-frontends-');
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const seen = (mark: string) => proxy.requests().filter((r) => r.includes(mark));

describe('url.el no_proxy regexps', () => {
  it.each([
    ['\\(localhost\\|127\\.0\\.0\\.1\\)', 'localhost', true],
    ['\\(localhost\\|127\\.0\\.0\\.1\\)', '127.0.0.1', true],
    ['\\(localhost\\|127\\.0\\.0\\.1\\)', '127a0b0c1', false],
    ['^.*\\.internal$', 'api.corp.internal', true],
    ['^.*\\.internal$', 'internal', false],
    ['\\`10\\.[0-9]+\\.', '10.2.3.4', true],
    ['example(x)|y', 'example(x)|y', true],
    ['example(x)|y', 'examplex', false],
    ['EXAMPLE', 'example.org', true],
    ['[^a-z]\\{2\\}', 'a12', true],
  ])('%s on %s: %s', (re, host, expected) => {
    expect(emacsRegexp(re).test(host)).toBe(expected);
  });

  it.each([['\\w+'], ['[[:alpha:]]'], ['[abc'], ['\\(a']])('%s is bad-proxy naming url-proxy-services', (re) => {
    expect(() => emacsRegexp(re)).toThrow(/^url-proxy-services: the no_proxy regexp/);
  });

  it('url-proxy-services replaces the environment: a scheme without an entry goes direct', () => {
    const o = proxyOptions({ http: 'p.invalid:3128' }, { https_proxy: 'q.invalid:1' });
    expect(chooseProxy(new URL('http://h.invalid/'), o)?.origin).toBe('http://p.invalid:3128');
    expect(chooseProxy(new URL('https://h.invalid/'), o)).toBeUndefined();
  });
});

describe('JSON-RPC sheet/send', () => {
  const sendWith = async (env: NodeJS.ProcessEnv, text: string, settings?: object) => {
    const eng = spawnEngine({ env: { ...CLEAN, ...env } });
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      return await eng.conn.sendRequest('sheet/send', { text, line: 1, ...(settings ? { settings } : {}) }).catch((e) => e);
    } finally {
      await eng.close();
    }
  };

  it('the proxy setting (one proxy, as curl -x) sends through the proxy', async () => {
    const r = await sendWith({}, `GET ${api.url}/small?rpc=all\n`, { proxy: { all: proxy.url } });
    expect(r.response.status).toBe(200);
    expect(seen('rpc=all')).toEqual([`GET ${api.url}/small?rpc=all HTTP/1.1`]);
  });

  it("url-proxy-services' http entry is used, and its no_proxy regexp sends direct", async () => {
    const via = await sendWith({}, `GET ${api.url}/small?rpc=url-el\n`, { proxy: { http: proxy.url.replace('http://', '') } });
    expect(via.response.status).toBe(200);
    expect(seen('rpc=url-el')).toHaveLength(1);
    const direct = await sendWith({}, `GET ${api.url}/small?rpc=regexp\n`, { proxy: { http: proxy.url, noProxyRegexp: '\\(localhost\\|127\\.0\\.0\\.1\\)' } });
    expect(direct.response.status).toBe(200);
    expect(direct.proxy).toBeUndefined();
    expect(seen('rpc=regexp')).toEqual([]);
  });

  it('without the setting the engine reads its environment (http_proxy)', async () => {
    const r = await sendWith({ http_proxy: proxy.url }, `GET ${api.url}/small?rpc=env\n`);
    expect(r.response.status).toBe(200);
    expect(seen('rpc=env')).toHaveLength(1);
    // The result names the proxy and where it came from (the trailer's Proxy: line).
    expect(r.proxy).toBe(`${proxy.url} (from http_proxy)`);
  });

  it('a malformed proxy is a bad-proxy error naming its source, and nothing is sent', async () => {
    const e = await sendWith({ http_proxy: proxy.url, NO_PROXY: '*.invalid' }, `GET ${api.url}/small?rpc=bad\n`);
    expect(e.data.code).toBe('bad-proxy');
    expect(e.message).toMatch(/^NO_PROXY: /);
    const e2 = await sendWith({}, `GET ${api.url}/small?rpc=bad2\n`, { proxy: { all: 'ftp://x' } });
    expect(e2.data.code).toBe('bad-proxy');
    const e3 = await sendWith({}, `GET ${api.url}/small?rpc=bad3\n`, { proxy: ['x'] });
    expect(e3.data.code).toBe('bad-argument');
    expect(seen('rpc=bad')).toEqual([]);
  });
});

describe('sheet run', () => {
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };

  it('--proxy sends every request through the proxy, redirects and the cookie jar included', async () => {
    const jar = path.join(dir, 'jar.txt');
    const f = file('a.sheet', `GET ${api.url}/cookies/set?run=1\n-> expect-status 200\n#\nGET ${api.url}/redirect/1?run=redirect\n-> expect-status 200\n#\nGET ${api.url}/cookies\n-> expect-jq .cookies.run == "1"\n`);
    const r = await runSheet(['run', '--proxy', proxy.url, '--cookie-jar', jar, f], { cwd: dir, env: CLEAN });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(seen('run=1')).toHaveLength(1);
    expect(seen('/redirect/1?run=redirect')).toHaveLength(1);
    expect(seen(`GET ${api.url}/users `)).not.toEqual([]);
    expect(fs.readFileSync(jar, 'utf8')).toMatch(/\trun\t1$/m);
  });

  it('http_proxy of the environment is read, and NO_PROXY sends direct', async () => {
    const f = file('b.sheet', `GET ${api.url}/small?run=env\n-> expect-status 200\n`);
    expect((await runSheet(['run', f], { cwd: dir, env: { ...CLEAN, http_proxy: proxy.url } })).code).toBe(0);
    expect(seen('run=env')).toHaveLength(1);
    const g = file('c.sheet', `GET ${api.url}/small?run=no-proxy\n-> expect-status 200\n`);
    expect((await runSheet(['run', g], { cwd: dir, env: { ...CLEAN, http_proxy: proxy.url, NO_PROXY: '127.0.0.1' } })).code).toBe(0);
    expect(seen('run=no-proxy')).toEqual([]);
    const h = file('d.sheet', `GET ${api.url}/small?run=noproxy-option\n-> expect-status 200\n`);
    expect((await runSheet(['run', '--noproxy', '', h], { cwd: dir, env: { ...CLEAN, http_proxy: proxy.url, NO_PROXY: '127.0.0.1' } })).code).toBe(0);
    expect(seen('run=noproxy-option')).toHaveLength(1);
  });

  it('a malformed proxy variable stops the run with a message naming it', async () => {
    const f = file('e.sheet', `GET ${api.url}/small?run=malformed\n`);
    const r = await runSheet(['run', f], { cwd: dir, env: { ...CLEAN, http_proxy: 'http://[::1' } });
    expect(r.code).toBe(2);
    expect(r.out + r.err).toMatch(/http_proxy: not a proxy URL/);
    expect(seen('run=malformed')).toEqual([]);
  });
});
