// Client certificates (mutual TLS; engine/src/http/client-cert.ts, docs/networks.md): a local
// HTTPS server made by test/fixtures/private-ca.mjs requires a certificate signed by its CA. The
// engine presents curl's --cert/--key/--pass (or a certificate per host), refuses a file it
// cannot use before anything is sent, and names the file and why; the server's refusal is
// curl's exit 35. Also the --cert FILE:PASS split, as curl reads it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, splitCertArg, type SendOptions } from '../../engine/src/http/send.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startProxy } from '../fixtures/proxy.mjs';
// @ts-expect-error plain ESM fixture without types
import { startPrivateCa } from '../fixtures/private-ca.mjs';

interface Client { cert: string; key: string; encKey: string; pass: string; both: string; strangerCert: string; strangerKey: string; otherKey: string }
let dir: string;
let server: { url: string; ca: string; client: Client; connections(): number; close(): Promise<void> };
let c: Client;
let proxy: { url: string; requests(): string[]; close(): Promise<void> };

beforeAll(async () => {
  dir = tempDir('client-cert-');
  server = await startPrivateCa(dir, { mtls: true });
  c = server.client;
  proxy = await startProxy();
});
afterAll(async () => {
  await server.close();
  await proxy.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (p: string, url = server.url) => ({ method: 'GET', url: `${url}${p}`, headers: [] as [string, string][] });
/** The client's CN as the server saw it, or the error's code, curl exit and message. */
const ask = (clientCert: SendOptions['clientCert'], extra: SendOptions = {}, p = '/x') =>
  send(get(p), { trust: { caFile: server.ca, env: {} }, proxy: { env: {} }, clientCert, ...extra }).then(
    (ex) => JSON.parse(Buffer.from(ex.response.body).toString()).client as string,
    (e) => ({ code: e.code, exit: e.details?.curlExit, message: e.message as string }),
  );

describe('presenting a client certificate', () => {
  it.each([
    ['--cert and --key', () => ({ cert: c.cert, key: c.key })],
    ['certificate and key in one file (no --key)', () => ({ cert: c.both })],
    ['an encrypted key with --pass', () => ({ cert: c.cert, key: c.encKey, pass: c.pass })],
    ['an encrypted key with --cert FILE:PASS', () => ({ cert: `${c.cert}:${c.pass}`, key: c.encKey })],
    ['relative names from cwd', () => ({ cert: 'client.pem', key: 'client.key', cwd: dir })],
    ['by host:port', () => ({ byHost: { [`127.0.0.1:${new URL(server.url).port}`]: { cert: c.cert, key: c.key } } })],
    ['by host', () => ({ byHost: { 'other.example': { cert: c.strangerCert, key: c.strangerKey }, '127.0.0.1': { cert: c.cert, key: c.key } } })],
  ])('%s: the server sees the client', async (_name, o) => {
    expect(await ask(o())).toBe('test client');
  });

  it('through a proxy CONNECT tunnel, the certificate reaches the target', async () => {
    expect(await ask({ cert: c.cert, key: c.key }, { proxy: { proxy: proxy.url, env: {} } }, '/tunnelled')).toBe('test client');
    expect(proxy.requests().some((r) => r.includes(`CONNECT 127.0.0.1:${new URL(server.url).port}`))).toBe(true);
  });
});

describe('a certificate that cannot be used: nothing is sent (curl exit 58)', () => {
  it.each([
    ['a missing file', () => ({ cert: path.join(dir, 'missing.pem') }), /--cert \S+missing\.pem: cannot read it \(ENOENT\)/],
    ['a file without a certificate', () => ({ cert: c.key, key: c.key }), /--cert \S+client\.key: the file holds no PEM certificate/],
    ['an empty name', () => ({ cert: '' }), /^--cert: no file name$/],
    ['a directory', () => ({ cert: dir }), /--cert \S+: a directory, not a file/],
    ['/dev/null', () => ({ cert: '/dev/null' }), /--cert \/dev\/null: the file holds no PEM certificate/],
    ['a certificate without its key', () => ({ cert: c.cert }), /--cert \S+client\.pem: the file holds no private key; give it with --key FILE/],
    ['a key file without a key', () => ({ cert: c.cert, key: c.cert }), /--key \S+client\.pem: the file holds no PEM private key/],
    ['an encrypted key without a passphrase', () => ({ cert: c.cert, key: c.encKey }), /--key \S+client-enc\.key: the key is encrypted; give its passphrase with --pass/],
    ['a wrong passphrase', () => ({ cert: c.cert, key: c.encKey, pass: 'wrong' }), /--key \S+client-enc\.key: the passphrase does not decrypt the key/],
    ['a key that does not match its certificate', () => ({ cert: c.cert, key: c.otherKey }), /--key \S+other-client\.key: the key does not belong to the certificate in \S+client\.pem \(CN=test client\)/],
    ['by host, named with its host', () => ({ byHost: { '127.0.0.1': { cert: c.cert, key: c.otherKey } } }), /--key for 127\.0\.0\.1 \S+other-client\.key: the key does not belong/],
  ])('%s', async (_name, o, message) => {
    const before = server.connections();
    const r = await ask(o());
    expect(r).toMatchObject({ code: 'bad-client-cert', exit: 58 });
    expect((r as { message: string }).message).toMatch(message);
    expect(server.connections()).toBe(before);
  });
});

describe('the server refuses (curl exit 35)', () => {
  it('no certificate where one is required', async () => {
    const r = await ask(undefined);
    expect(r).toMatchObject({ code: 'tls-error', exit: 35 });
    expect((r as { message: string }).message).toMatch(/refused the TLS handshake with no client certificate/);
  });
  it('a certificate from an authority the server does not trust, named', async () => {
    const r = await ask({ cert: c.strangerCert, key: c.strangerKey });
    expect(r).toMatchObject({ code: 'tls-error', exit: 35 });
    expect((r as { message: string }).message).toMatch(/(with|accept) the client certificate \(--cert \S+stranger\.pem\)/);
  });
  it('a certificate for another host is not presented', async () => {
    const r = await ask({ byHost: { 'localhost': { cert: c.cert, key: c.key } } });
    expect(r).toMatchObject({ code: 'tls-error', exit: 35 });
  });
  it('an http:// URL reads no certificate files at all', async () => {
    const r = await send({ method: 'GET', url: 'http://127.0.0.1:1/', headers: [] }, { clientCert: { cert: path.join(dir, 'missing.pem') } }).catch((e) => e.code);
    expect(r).toBe('connection-refused');
  });
});

describe("curl's --cert FILE:PASS", () => {
  it.each([
    ['client.pem', { file: 'client.pem' }],
    ['client.pem:secret', { file: 'client.pem', pass: 'secret' }],
    ['client.pem:se:cret', { file: 'client.pem', pass: 'se:cret' }],
    ['my\\:cert.pem:pw', { file: 'my:cert.pem', pass: 'pw' }],
    ['C:\\certs\\client.pem:pw', { file: 'C:\\certs\\client.pem', pass: 'pw' }],
    ['client.pem:', { file: 'client.pem', pass: '' }],
  ])('%s', (arg, expected) => {
    expect(splitCertArg(arg)).toEqual(expected);
  });
});
