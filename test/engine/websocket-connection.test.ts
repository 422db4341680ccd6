// A WebSocket request connects with the request's connection settings (issue 40), as an HTTP
// request does: wss:// checked against `# @cacert` (and refused without it, with curl's 60),
// `# @insecure`, and `# @proxy` through a real tinyproxy by CONNECT. Real servers on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';
// @ts-expect-error plain JavaScript fixture
import { startPrivateCa } from '../fixtures/private-ca.mjs';
// @ts-expect-error plain JavaScript fixture
import { startProxy } from '../fixtures/proxy.mjs';

let dir: string;
let secure: { wsUrl: string; close(): Promise<void> };
let plain: { wsUrl: string; close(): Promise<void> };
let proxy: { url: string; requests(): string[]; close(): Promise<void> };

beforeAll(async () => {
  dir = tempDir('ws-tls-');
  // The private CA's files (its own HTTPS server is not needed).
  const ca = await startPrivateCa(dir);
  await ca.close();
  secure = await startWsServer({ tls: { key: fs.readFileSync(path.join(dir, 'srv.key')), cert: fs.readFileSync(path.join(dir, 'srv.pem')) } });
  plain = await startWsServer();
  proxy = await startProxy();
}, 60000);
afterAll(async () => {
  await Promise.all([secure.close(), plain.close(), proxy.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const send = (text: string) => new Session().send({ text, line: text.split('\n').findIndex((l) => /^(WS|WEBSOCKET)/.test(l)) + 1, path: path.join(dir, 'a.http'), settings: { timeoutMs: 5000 } });

it('wss:// is checked against # @cacert, refused without it (curl 60), and taken with # @insecure', async () => {
  const withCa = await send(`# @cacert ca.pem\nWSS ${secure.wsUrl.replace('wss://', '')}/echo\n\nover tls`);
  expect(withCa.websocket!.messages.map((m) => m.text)).toEqual(['over tls', 'over tls']);
  await expect(send(`WS ${secure.wsUrl}/echo\n\nx`)).rejects.toMatchObject({ details: { curlExit: 60 } });
  const insecure = await send(`# @insecure\nWS ${secure.wsUrl}/echo\n\ny`);
  expect(insecure.websocket!.messages.filter((m) => m.direction === 'received').map((m) => m.text)).toEqual(['y']);
}, 30000);

it('goes through # @proxy by CONNECT', async () => {
  const out = await send(`# @proxy ${proxy.url}\nWS ${plain.wsUrl}/echo\n\nproxied`);
  expect(out.websocket!.messages.filter((m) => m.direction === 'received').map((m) => m.text)).toEqual(['proxied']);
  const port = new URL(plain.wsUrl).port;
  expect(proxy.requests().some((l) => l.startsWith(`CONNECT 127.0.0.1:${port}`))).toBe(true);
}, 30000);
