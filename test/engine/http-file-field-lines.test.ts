// Issue 29: request files as Visual Studio, IntelliJ and VS Code REST Client users write them,
// sent to a raw capture server on 127.0.0.1; the bytes that arrive are compared with what the
// dialect documents (and httpyac 6.16 sends). This file: how the text is read into requests.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../../engine/src/rpc/session.js';
import { capture, wire, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
});
afterAll(async () => {
  await cap?.close();
});

const BOM = '\uFEFF';

describe('a UTF-8 byte order mark is not content (Visual Studio writes one)', () => {
  it('sheet run sends a .http file that starts with a BOM and a file variable', async () => {
    const r = await cap.sheetRun('bom.http', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('@host = HOST\n\nGET {{host}}/x\nAccept: application/json\n')]));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.got.map(wire)).toEqual([{ line: 'GET /x HTTP/1.1', headers: { accept: 'application/json' }, body: '' }]);
  });

  it('the Session (C-c C-c) reads a sheet and a .http file with a BOM the same way', async () => {
    const s = new Session();
    const n = cap.requests.length;
    await s.send({ text: `${BOM}:base = ${cap.base}\nGET :base/sheet\n`, line: 2, path: path.join(cap.dir, 'a.sheet') });
    await s.send({ text: `${BOM}GET ${cap.base}/first-line\n`, line: 1, path: path.join(cap.dir, 'a.http') });
    // A restclient sheet saved as .http with a BOM is still recognised as a sheet.
    await s.send({ text: `${BOM}:base = ${cap.base}\n#\nGET :base/guessed\n`, line: 3, path: path.join(cap.dir, 'old.http') });
    expect(cap.requests.slice(n).map((r) => r.requestLine)).toEqual(['GET /sheet HTTP/1.1', 'GET /first-line HTTP/1.1', 'GET /guessed HTTP/1.1']);
  });
});
