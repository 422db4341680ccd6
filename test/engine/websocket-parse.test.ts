// WebSocket request lines (issue 40) in both syntaxes: JetBrains' `WEBSOCKET URL`, httpyac's
// `WS`/`WSS`, in `.http` files (http-file/parse.ts) and sheets (sheet/parse.ts), one rule
// (sheet/websocket-line.ts). The headers are the handshake's; the body is the messages.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';
import { parseSheet } from '../../engine/src/sheet/parse.js';
import { splitStreamMessages } from '../../engine/src/sheet/stream-messages.js';

const lines = (...l: string[]) => l.join('\n');

describe.each([
  ['.http file', parseHttpFile],
  ['sheet', parseSheet],
])('a WebSocket request in a %s', (_, parse) => {
  it.each([
    ['WEBSOCKET ws://127.0.0.1:8080/chat', 'ws://127.0.0.1:8080/chat'],
    ['WEBSOCKET wss://example.com/chat', 'wss://example.com/chat'],
    ['WS ws://h/x', 'ws://h/x'],
    ['WS localhost:8080/x', 'ws://localhost:8080/x'],
    ['WSS example.com/x', 'wss://example.com/x'],
    ['WSS ws://example.com/x', 'wss://example.com/x'],
    ['WEBSOCKET http://h/x', 'http://h/x'],
  ])('%s is a GET handshake to %s', (line, url) => {
    const s = parse(line);
    expect(s.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(s.requests[0]).toMatchObject({ method: 'GET', url, websocket: true, line: 1 });
  });

  it('keeps the headers for the handshake and the messages as the body', () => {
    const text = lines(
      'WEBSOCKET ws://127.0.0.1:1/ws',
      'Authorization: Bearer abc',
      '',
      '{"message": "first"}',
      '===',
      '{"message": "second"}',
      '=== wait-for-server',
      '=== wait-for-server',
      'third',
    );
    const r = parse(text).requests[0]!;
    expect(parse('GET http://h/x').requests[0]!.websocket).toBeUndefined();
    expect(r.headers).toEqual([{ kind: 'header', name: 'Authorization', value: 'Bearer abc', line: 2 }]);
    expect(r.body?.kind).toBe('text');
    const body = r.body as { text: string; line: number };
    expect(splitStreamMessages(body.text, body.line)).toEqual([
      { kind: 'send', text: '{"message": "first"}', line: 4 },
      { kind: 'send', text: '{"message": "second"}', line: 6 },
      { kind: 'wait', line: 7 },
      { kind: 'wait', line: 8 },
      { kind: 'send', text: 'third', line: 9 },
    ]);
  });
});

describe('WebSocket lines in .http files', () => {
  it('a WS line after a blank line starts a new request (httpyac)', () => {
    const s = parseHttpFile(lines('GET http://h/a', '', 'WS ws://h/b', '', 'hello'));
    expect(s.requests.map((r) => [r.url, r.websocket ?? false])).toEqual([['http://h/a', false], ['ws://h/b', true]]);
  });

  it('a variable URL is left for the resolver', () => {
    expect(parseHttpFile('WEBSOCKET {{base}}/chat').requests[0]).toMatchObject({ url: '{{base}}/chat', websocket: true });
  });
});

describe('WebSocket lines in sheets', () => {
  it('a variable URL is left for the resolver', () => {
    expect(parseSheet(':base = ws://h\n#\nWS :base/chat').requests[0]).toMatchObject({ url: ':base/chat', websocket: true, line: 3 });
  });
});

describe('WebSocket requests in conversions', () => {
  it('sheet convert keeps a WebSocket request one both ways, its messages as written', async () => {
    const { httpToSheet, sheetToHttp } = await import('../../engine/src/convert/sheet-http.js');
    const http = lines('WS ws://h/chat', 'X-A: 1', '', 'one', '===', 'two');
    const sheet = httpToSheet(http).text;
    expect(parseSheet(sheet).requests[0]).toMatchObject({ method: 'GET', url: 'ws://h/chat', websocket: true });
    expect(sheet).toContain('one\n===\ntwo');
    const back = sheetToHttp(sheet).text;
    expect(parseHttpFile(back).requests[0]).toMatchObject({ method: 'GET', url: 'ws://h/chat', websocket: true });
  });
});
