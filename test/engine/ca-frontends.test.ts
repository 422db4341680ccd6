// Private certificate authorities in the front ends other than the shell (docs/networks.md):
// the JSON-RPC `caFile` setting (Emacs' sheet-ca-file), the engine's CURL_CA_BUNDLE, and
// `sheet run --cacert` / SSL_CERT_FILE, against an HTTPS server signed by a CA made with openssl
// (test/fixtures/private-ca.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, spawnEngine, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';

let dir: string;
let server: { url: string; ca: string; other: string; connections(): number; close(): Promise<void> };

/** No CA variable of the machine running the tests leaks into the processes under test. */
const CLEAN = { CURL_CA_BUNDLE: undefined, SSL_CERT_FILE: undefined, NODE_EXTRA_CA_CERTS: undefined };

beforeAll(async () => {
  dir = tempDir('ca-frontends-');
  server = await startPrivateCa(dir);
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('JSON-RPC sheet/send', () => {
  const sendWith = async (env: NodeJS.ProcessEnv, settings?: object) => {
    const eng = spawnEngine({ env: { ...CLEAN, ...env } });
    try {
      await eng.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
      return await eng.conn.sendRequest('sheet/send', { text: `GET ${server.url}/rpc\n`, line: 1, ...(settings ? { settings } : {}) }).catch((e) => e);
    } finally {
      await eng.close();
    }
  };

  it('the caFile setting trusts the CA, over CURL_CA_BUNDLE; without either the certificate fails', async () => {
    expect((await sendWith({})).data.code).toBe('tls-error');
    expect((await sendWith({}, { caFile: server.ca })).response.status).toBe(200);
    expect((await sendWith({ CURL_CA_BUNDLE: server.ca })).response.status).toBe(200);
    expect((await sendWith({ CURL_CA_BUNDLE: server.ca }, { caFile: server.other })).data.code).toBe('tls-error');
  });

  it('an unreadable caFile is bad-ca-file naming the file, and nothing is sent', async () => {
    const before = server.connections();
    const e = await sendWith({}, { caFile: path.join(dir, 'missing.pem') });
    expect(e.data.code).toBe('bad-ca-file');
    expect(e.message).toContain(`--cacert ${path.join(dir, 'missing.pem')}: cannot read the CA file`);
    expect(server.connections()).toBe(before);
  });
});

describe('sheet run', () => {
  it('--cacert (relative to the current directory) and SSL_CERT_FILE trust the CA', async () => {
    const f = path.join(dir, 'a.sheet');
    fs.writeFileSync(f, `GET ${server.url}/run\n-> expect-status 200\n`);
    const none = await runSheet(['run', f], { cwd: dir, env: CLEAN });
    expect(none.code).toBe(3);
    expect(none.out + none.err).toMatch(/TLS error/);
    expect((await runSheet(['run', '--cacert', 'ca.pem', f], { cwd: dir, env: CLEAN })).code).toBe(0);
    expect((await runSheet(['run', f], { cwd: dir, env: { ...CLEAN, SSL_CERT_FILE: server.ca } })).code).toBe(0);
    const bad = await runSheet(['run', '--cacert', 'other.pem', f], { cwd: dir, env: { ...CLEAN, SSL_CERT_FILE: server.ca } });
    expect(bad.code).toBe(3);
  });
});
