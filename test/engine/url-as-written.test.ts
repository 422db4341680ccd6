// `# @no-auto-encoding` (engine/src/url/as-written.ts, docs/sheet-format.md "Request line"):
// a sheet or .http request sends its path and query byte for byte, as curl sends a URL from its
// command line; checked on the wire with a raw capture server on 127.0.0.1, against real curl.
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';
import { resolveRequest } from '../../engine/src/resolve/resolve.js';
import { send } from '../../engine/src/http/send.js';
import { toCurl } from '../../engine/src/curl/to-curl.js';
import { requestInfo } from '../../engine/src/session/answer.js';
import { requestName } from '../../engine/src/sheet-command/report.js';
import { httpToSheet } from '../../engine/src/convert/sheet-http.js';
import { targetAsWritten, unsendableTarget } from '../../engine/src/url/as-written.js';
import { isEngineError } from '../../engine/src/errors.js';

const run = promisify(execFile);

describe('targetAsWritten', () => {
  it.each([
    ['http://h/a/{K}?m="b"&x=<y>', '/a/{K}?m="b"&x=<y>'],
    ['http://h', '/'],
    ['http://h?', '/?'],
    ['http://u:p@h:8/r6?', '/r6?'],
    ['http://h/a/./b/../c?q=%zz#frag', '/a/c?q=%zz'],
    ['http://h/a/..', '/'],
    ['https://h/q?n=%张三%', '/q?n=%张三%'],
    ['h/no-scheme', undefined],
  ])('%s -> %s', (url, target) => {
    expect(targetAsWritten(url)).toBe(target);
  });

  it('names what cannot go on a request line', () => {
    expect(unsendableTarget('/a b')).toMatch(/a space/);
    expect(unsendableTarget('/a\tb')).toMatch(/a tab/);
    expect(unsendableTarget('/a\x7f')).toMatch(/U\+007F/);
    expect(unsendableTarget('/a{"b"}|%')).toBeUndefined();
  });
});

describe('a request tagged # @no-auto-encoding, on the wire', () => {
  let capture: Awaited<ReturnType<typeof startCapture>>;
  let base: string;
  beforeAll(async () => {
    capture = await startCapture();
    base = `http://127.0.0.1:${capture.port}`;
  });
  afterAll(() => capture.close());
  const take = () => capture.requests.splice(0) as { requestLine: string }[];
  const target = '/api/v1/series?match[]=up{job="node"}&x=<y>|z&q=%张三%&e=';

  async function sendSheet(text: string, http = false) {
    const sheet = http ? parseHttpFile(text) : parseSheet(text);
    const { request } = await resolveRequest(sheet, sheet.requests[0]!);
    take();
    await send(request);
    return { request, line: take()[0]!.requestLine };
  }

  it('sends the bytes curl sends (sheet and .http)', async () => {
    await run('curl', ['-s', '-o', '/dev/null', '-g', `${base}${target}`]);
    const curl = take()[0]!.requestLine;
    expect(curl).toBe(`GET ${Buffer.from(target, 'utf8').toString('latin1')} HTTP/1.1`);
    expect((await sendSheet(`# @no-auto-encoding\nGET ${base}${target}\n`)).line).toBe(curl);
    expect((await sendSheet(`### q\n# @no-auto-encoding\nGET ${base}${target}\n`, true)).line).toBe(curl);
  });

  it('without the tag the URL is percent-encoded as before', async () => {
    const { line } = await sendSheet(`# a comment\nGET ${base}/a/{K}?m="b"\n`);
    expect(line).toBe('GET /a/%7BK%7D?m=%22b%22 HTTP/1.1');
  });

  it('the tag is read among the comment lines just above the request, not further up', async () => {
    const text = `# @no-auto-encoding\n# more\nGET ${base}/a/{K}\n#\nGET ${base}/b/{K}\n`;
    const sheet = parseSheet(text);
    expect(sheet.requests.map((r) => r.directives?.map((d) => d.name))).toEqual([['no-auto-encoding'], undefined]);
  });

  it('keeps an empty query and substitutes variables first', async () => {
    const { line, request } = await sendSheet(`:k = {a}\n# @no-auto-encoding\nGET ${base}/r/:k?\n`);
    expect(line).toBe('GET /r/{a}? HTTP/1.1');
    // C-c C-u writes the URL as written, with -g so curl does not glob it.
    expect(toCurl(request)).toBe(`curl -g '${base}/r/{a}?'`);
    // The request as sent (Emacs's response buffer, reports) shows the URL that went out.
    expect(requestInfo(request).url).toBe(`${base}/r/{a}?`);
    expect(requestName({ file: 'x.sheet', line: 3, method: 'GET', url: requestInfo(request).url } as Parameters<typeof requestName>[0])).toBe('GET /r/{a}? (x.sheet:3)');
  });

  it('a space in the URL is invalid-url naming the line', async () => {
    const sheet = parseSheet(`# @no-auto-encoding\nGET ${base}/a?q=a b\n`);
    const err = await resolveRequest(sheet, sheet.requests[0]!).catch((e: unknown) => e);
    expect(isEngineError(err) && err.code).toBe('invalid-url');
    expect(isEngineError(err) && err.line).toBe(2);
    expect(String((err as Error).message)).toMatch(/a space/);
  });

  it('a redirect\'s Location is a new URL, encoded as usual', async () => {
    // A raw server: 302 to a Location holding braces, then 200.
    const lines: string[] = [];
    const server = net.createServer((sock) => {
      sock.once('data', (d) => {
        const line = d.toString('latin1').split('\r\n')[0]!;
        lines.push(line);
        sock.end(lines.length === 1 ? 'HTTP/1.1 302 Found\r\nLocation: /next/{b}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' : 'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const port = (server.address() as net.AddressInfo).port;
      const sheet = parseSheet(`# @no-auto-encoding\nGET http://127.0.0.1:${port}/first/{a}\n`);
      const { request } = await resolveRequest(sheet, sheet.requests[0]!);
      const ex = await send(request);
      expect(lines).toEqual(['GET /first/{a} HTTP/1.1', 'GET /next/%7Bb%7D HTTP/1.1']);
      expect(ex.request.target).toBeUndefined();
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('.http -> sheet keeps the tag', () => {
    const { text, problems } = httpToSheet(`# @no-auto-encoding\nGET http://h/{a}\n`);
    expect(text).toContain('# @no-auto-encoding\nGET http://h/{a}');
    expect(problems).toEqual([]);
  });
});
