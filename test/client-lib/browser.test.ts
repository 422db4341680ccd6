// @vitest-environment node
// The package as a Restangular user loads it, in a real browser: Debian's Chromium (driven by
// puppeteer-core, as test/engine/sheet-run-html.test.ts does) opens a page from a static server
// on 127.0.0.1 that loads angular.js, then client-lib/dist/client.js with <script> tags (the
// README's "Browser script"), and talks to httpbin on another port, so every request is
// cross-origin (httpbin answers CORS). The AngularJS version is the project's (1.5.11 for
// client-lib-ng15, 1.8.3 for client-lib-ng18). Habits from Restangular's README: setBaseUrl,
// a response interceptor unwrapping `{data, meta}` lists, customPOST, the error interceptor
// that replays through $http, the file download with responseType 'arraybuffer', and the
// AngularJS-free `ClientLib` global on fetch.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import type { Browser } from 'puppeteer-core';
import { sharedHttpbin } from '../fixtures/shared-httpbin.js';
// @ts-expect-error plain JS fixture
import { launchChromium } from '../fixtures/chromium.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(__dirname, '../..');

let bin: { url: string };
let site: http.Server;
let origin: string;
let chromium: { browser: Browser; close(): Promise<void> };
let browser: Browser;
let angularFile = '';
const files: Record<string, () => string> = {
  '/angular.js': () => fs.readFileSync(angularFile, 'utf8'),
  '/client.js': () => fs.readFileSync(path.join(root, 'client-lib/dist/client.js'), 'utf8'),
  '/': () => '<!doctype html><html><head><script src="/angular.js"></script><script src="/client.js"></script></head><body></body></html>',
};

beforeAll(async () => {
  bin = await sharedHttpbin();
  site = http.createServer((req, res) => {
    const f = files[req.url || ''];
    if (!f) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': req.url === '/' ? 'text/html' : 'text/javascript' }).end(f());
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as any).port}`;
  chromium = await launchChromium();
  browser = chromium.browser;
}, 60000);

afterAll(async () => {
  await chromium?.close();
  await new Promise((r) => site?.close(r));
});

/** Run `body` (a function source taking `(Client, $http, $q, HB)`) in an app of module `client`; resolves with what its promise gives. */
async function inApp(body: string): Promise<any> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  try {
    await page.goto(origin + '/');
    const out = await page.evaluate(
      (src: string, hb: string) =>
        new Promise((resolve) => {
          const w = window as any;
          const run = new Function('Client', '$http', '$q', 'HB', 'return (' + src + ')(Client, $http, $q, HB);');
          w.angular.module('trial', ['client']).run(['Client', '$http', '$q', (Client: any, $http: any, $q: any) => {
            Client.setBaseUrl(hb);
            Promise.resolve(run(Client, $http, $q, hb)).then(
              (v: any) => resolve({ ok: v }),
              (e: any) => resolve({ failed: { code: e && e.code, message: String(e && e.message) } }),
            );
          }]);
          w.angular.bootstrap(document.body, ['trial']);
        }),
      body,
      bin.url,
    );
    expect(errors).toEqual([]);
    return out;
  } finally {
    await page.close();
  }
}

describe('the <script> build in Chromium, cross-origin to httpbin', () => {
  beforeAll(({}, suite: any) => {
    angularFile = require.resolve(`${suite.file?.projectName === 'client-lib-ng15' ? 'angular15' : 'angular'}/angular.js`);
  });

  it('module client loads after angular.js; one().get(), customPOST and a {data, meta} list unwrapped', async () => {
    const out = await inApp(`function (Client, $http, $q, HB) {
      Client.addResponseInterceptor(function (data, operation) {
        if (operation === 'getList') { var list = data.data; list.meta = data.meta; return list; }
        return data;
      });
      var wrapped = btoa(JSON.stringify({ data: [{ id: 1 }, { id: 2 }], meta: { total: 2 } }));
      return $q.all([
        Client.one('anything', 7).get({ q: 'a b' }),
        Client.all('anything').customPOST({ name: 'M' }, 'messages', { p: 2 }, { 'X-Trace': 't' }),
        Client.one('base64', wrapped).getList(),
      ]).then(function (r) {
        return { get: [r[0].method, r[0].url, r[0].args.q], post: [r[1].url, r[1].json, r[1].headers['X-Trace']], list: [r[2].length, r[2].meta, typeof r[2][0].put] };
      });
    }`);
    expect(out.ok.get).toEqual(['GET', bin.url + '/anything/7?q=a+b', 'a b']);
    expect(out.ok.post).toEqual([bin.url + '/anything/messages?p=2', { name: 'M' }, 't']);
    expect(out.ok.list).toEqual([2, { total: 2 }, 'function']);
  });

  it('the error interceptor replays a 401 through $http and the call resolves with the replay', async () => {
    const out = await inApp(`function (Client, $http, $q, HB) {
      var n = 0;
      Client.setErrorInterceptor(function (response, deferred, responseHandler) {
        if (response.status !== 401 || n++) return true;
        response.config.url = response.config.url.replace('/status/401', '/get');
        $http(response.config).then(responseHandler, deferred.reject);
        return false;
      });
      return Client.one('status', 401).get().then(function (r) { return [r.url, typeof r.get, n]; });
    }`);
    expect(out.ok).toEqual([bin.url + '/get', 'function', 1]);
  });

  it("a download with responseType 'arraybuffer' is the PNG's bytes, through $http and through ClientLib (fetch)", async () => {
    const png = execFileSync('curl', ['-s', bin.url + '/image/png']);
    const out = await inApp(`function (Client, $http, $q, HB) {
      var bytes = function (b) { return b instanceof ArrayBuffer ? Array.prototype.slice.call(new Uint8Array(b)) : 'not an ArrayBuffer: ' + typeof b; };
      return $q.all([
        Client.one('image', 'png').withHttpConfig({ responseType: 'arraybuffer' }).get(),
        ClientLib.createClient({ baseUrl: HB }).one('image', 'png').withHttpConfig({ responseType: 'arraybuffer' }).get(),
      ]).then(function (r) { return [bytes(r[0]), bytes(r[1])]; });
    }`);
    expect(out.ok[0]).toEqual(Array.from(png));
    expect(out.ok[1]).toEqual(Array.from(png));
  });

  it('ClientLib (no AngularJS) uploads FormData as multipart, and a 404 rejects with HTTP_ERROR naming the URL', async () => {
    const out = await inApp(`function (Client, $http, $q, HB) {
      var lib = ClientLib.createClient({ baseUrl: HB });
      var form = new FormData();
      form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
      return lib.all('anything').customPOST(form, 'up').then(function (r) {
        return lib.one('status', 404).get().then(null, function (e) {
          return [r.headers['Content-Type'].split(';')[0], r.files, e.code, e.status, e.message];
        });
      });
    }`);
    expect(out.ok).toEqual(['multipart/form-data', { file: 'hello' }, 'HTTP_ERROR', 404, `GET ${bin.url}/status/404 failed with status 404 NOT FOUND`]);
  });

  it("ClientLib (fetch): credentials 'include' (fetch's name) and withCredentials ($http's) send the page's cookie cross-origin; without either it stays home", async () => {
    const out = await inApp(`function (Client, $http, $q, HB) {
      document.cookie = 'trial=c1; path=/';
      var lib = ClientLib.createClient({ baseUrl: HB });
      var cookies = function (config) {
        var one = lib.one('cookies');
        return (config ? one.withHttpConfig(config) : one).get().then(function (r) { return r.cookies; });
      };
      return Promise.all([cookies({ credentials: 'include' }), cookies({ withCredentials: true }), cookies(null), cookies({ credentials: 'omit', withCredentials: true })]);
    }`);
    expect(out.ok).toEqual([{ trial: 'c1' }, { trial: 'c1' }, {}, {}]);
  });
});
