// A sheet's multipart body (docs/sheet-format.md, "Multipart bodies"): the .http form, one rule
// (sheet/body-parts.ts, resolve/body-parts.ts): CRLF line ends, `< path` lines replaced by the
// file's bytes, and only under a written multipart Content-Type (a plain body is unchanged).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';
import { resolveRequest } from '../../engine/src/resolve/resolve.js';
import { bodyBytes } from '../../engine/src/model.js';
import { tempDir } from './helpers.js';

const dir = tempDir('sheet-multipart-');
fs.writeFileSync(path.join(dir, 'a.bin'), Buffer.from([0x00, 0x0a, 0xff]));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function body(text: string, http = false): Promise<Buffer> {
  const sheet = http ? parseHttpFile(text) : parseSheet(text);
  expect(sheet.diagnostics).toEqual([]);
  const { request } = await resolveRequest(sheet, sheet.requests[0]!, { baseDir: dir });
  return Buffer.from(bodyBytes(request.body)!);
}

const form = (ct: string) => [
  'POST http://h/up', `Content-Type: ${ct}`, '',
  '--B', 'Content-Disposition: form-data; name="t"', '', ':v',
  '--B', 'Content-Disposition: form-data; name="f"; filename="a.bin"', '', '< a.bin',
  '--B--', '', '',
];

describe('a multipart sheet body', () => {
  it('sends CRLF lines, the file bytes and the variables substituted', async () => {
    const bytes = await body([':v = ada', ...form('multipart/form-data; boundary=B')].join('\n'));
    expect(bytes).toEqual(Buffer.concat([
      Buffer.from('--B\r\nContent-Disposition: form-data; name="t"\r\n\r\nada\r\n--B\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n'),
      Buffer.from([0x00, 0x0a, 0xff]),
      Buffer.from('\r\n--B--\r\n'),
    ]));
  });

  it('is the bytes the same .http request sends', async () => {
    const sheetBytes = await body(form('multipart/form-data; boundary=B').join('\n'));
    const httpBytes = await body(form('multipart/form-data; boundary=B').join('\n').replace(/\n\n$/, '\n'), true);
    // .http drops trailing blank lines: the sheet's last empty line is its closing CRLF.
    expect(sheetBytes.subarray(0, httpBytes.length)).toEqual(httpBytes);
    expect(sheetBytes.subarray(httpBytes.length).toString()).toBe('\r\n');
  });

  it('without a multipart Content-Type the body stays text, < lines and all, as restclient.el sends it', async () => {
    const bytes = await body(form('text/plain').join('\n'));
    expect(bytes.toString()).toContain('\n< a.bin\n');
    expect(bytes.includes('\r')).toBe(false);
  });
});
