// The built browser script: dist/client.js evaluated like a <script> after angular (and
// angular-mocks) in a fresh jsdom window registers module `client` with a working `Client`.
import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { JSDOM } from 'jsdom';
import { spawnSync } from 'node:child_process';

const require = createRequire(import.meta.url);
const root = path.resolve(__dirname, '../..');

function clientJs(): string {
  const built = path.join(root, 'client-lib/dist/client.js');
  if (fs.existsSync(built)) return fs.readFileSync(built, 'utf8');
  // Not built yet: bundle the same entry the build uses, into a private temp file.
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'client-lib-')), 'client.js');
  // esbuild's JS API, in a child Node process (esbuild refuses jsdom's TextEncoder).
  const script = `require('esbuild').buildSync({ entryPoints: [${JSON.stringify(path.join(root, 'client-lib/src/browser.ts'))}], bundle: true, format: 'iife', target: 'es2017', outfile: ${JSON.stringify(out)}, logLevel: 'silent' })`;
  const r = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error('esbuild failed: ' + r.stderr);
  return fs.readFileSync(out, 'utf8');
}

describe('dist/client.js', () => {
  it('loaded with <script> after angular registers module client (Client, ClientProvider)', async () => {
    const ngPkg = (window as any).__angularPkg || 'angular';
    const mocksPkg = ngPkg === 'angular15' ? 'angular-mocks15' : 'angular-mocks';
    const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/', runScripts: 'outside-only' });
    const w: any = dom.window;
    w.eval(fs.readFileSync(require.resolve(`${ngPkg}/angular.js`), 'utf8'));
    w.eval(fs.readFileSync(require.resolve(`${mocksPkg}/angular-mocks.js`), 'utf8'));
    w.eval(clientJs());
    expect(w.angular.module('client').name).toBe('client');
    let provider: any;
    const inj = w.angular.injector(['ng', 'ngMock', 'client', ['ClientProvider', (p: any) => {
      provider = p.setBaseUrl('/api');
    }]]);
    expect(typeof provider.setClientFields).toBe('function');
    const Client = inj.get('Client');
    const $httpBackend = inj.get('$httpBackend');
    $httpBackend.expectGET('/api/users').respond(200, [{ id: 1 }]);
    let got: any;
    Client.all('users').getList().then((v: any) => (got = v));
    $httpBackend.flush();
    expect(got[0].getClientUrl()).toBe('/api/users/1');
    expect(w.angular.version.full).toBe(ngPkg === 'angular15' ? '1.5.11' : '1.8.3');
    w.close();
  });

  it('bundles the engine browser-safe: no Node module, no undici; toCurl and record() work in the page', () => {
    const js = clientJs();
    expect(js).not.toMatch(/require\(["'](node:|undici|tough-cookie|proper-lockfile|fs|path|crypto)/);
    expect(js).not.toMatch(/\bundici\b|\bBuffer\./);
    const ngPkg = (window as any).__angularPkg || 'angular';
    const dom = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/app/', runScripts: 'outside-only' });
    const w: any = dom.window;
    // jsdom lacks TextEncoder/TextDecoder, which every browser has.
    w.TextEncoder = TextEncoder;
    w.TextDecoder = TextDecoder;
    w.eval(fs.readFileSync(require.resolve(`${ngPkg}/angular.js`), 'utf8'));
    w.eval(js);
    const Client = w.angular.injector(['ng', 'client', ['ClientProvider', (p: any) => {
      p.setBaseUrl('/api');
    }]]).get('Client');
    const user = Client.one('users', 1);
    expect(user.toCurl()).toBe("curl -H 'Accept: application/json, text/plain, */*' http://localhost/api/users/1");
    user.name = 'Ada';
    expect(user.toCurl('put')).toBe(
      "curl -X PUT -H 'Content-Type: application/json;charset=utf-8' -H 'Accept: application/json, text/plain, */*' --data-binary '{\"id\":1,\"name\":\"Ada\"}' http://localhost/api/users/1",
    );
    expect(Client.all('users').toCurl()).toBe("curl -H 'Accept: application/json, text/plain, */*' http://localhost/api/users");
    Client.record();
    Client.all('users').getList({ page: 2 });
    expect(Client.stop()).toBe('GET http://localhost/api/users?page=2\nAccept: application/json, text/plain, */*\n#\n');
    w.close();
  });
});
