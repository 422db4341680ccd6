// Binary WebSocket messages sent (issue 40): a message that is one line `< ./file` goes as a
// binary message of the file's bytes (httpyac, JetBrains), relative to the .http file; a body
// that is a file as a whole is one binary message. Against the `ws` echo server on 127.0.0.1 (test/fixtures/ws-server.mjs).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Session } from '../../engine/src/session/session.js';
import { tempDir } from './helpers.js';
// @ts-expect-error plain JavaScript fixture
import { startWsServer } from '../fixtures/ws-server.mjs';

let server: { wsUrl: string; close(): Promise<void> };
let dir: string;
beforeAll(async () => {
  server = await startWsServer();
  dir = tempDir('ws-binary-');
  fs.writeFileSync(path.join(dir, 'frame.bin'), Buffer.from([0, 1, 2, 255]));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const send = (text: string) => new Session().send({ text, line: 1, path: path.join(dir, 'chat.http'), settings: {} });
const shown = (ms: { direction: string; text: string; binary: boolean }[]) => ms.map((m) => `${m.direction === 'sent' ? '>' : '<'} ${m.binary ? 'binary ' : ''}${m.text}`);

it('a `< ./file` message goes as a binary message of its bytes, between text ones', async () => {
  const out = await send([`WEBSOCKET ${server.wsUrl}/echo`, '', 'hello', '=== wait-for-server', '< ./frame.bin', '=== wait-for-server', 'bye', ''].join('\n'));
  expect(shown(out.websocket!.messages)).toEqual(['> hello', '< hello', '> binary AAEC/w==', '< binary AAEC/w==', '> bye', '< bye']);
  expect(out.websocket!.messages[2]).toMatchObject({ bytes: 4, line: 5 });
  expect(out.hooks.assertions.filter((a) => !a.passed)).toEqual([]);
});

it('a body that is a file as a whole is one binary message', async () => {
  const out = await send([`WS ${server.wsUrl}/echo`, '', '< ./frame.bin', ''].join('\n'));
  expect(shown(out.websocket!.messages)).toEqual(['> binary AAEC/w==', '< binary AAEC/w==']);
});
