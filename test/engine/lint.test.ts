// Issue 25 item 4: the diagnostics an editor shows (engine/src/lint/diagnostics.ts), as a table:
// sheet text -> [line:column-endColumn severity code] of each diagnostic. Columns are 1-based
// code points. The false positives restclient.el users would hit first (ports, JSON `"a":true`,
// times, a declared name that prefixes a longer word) are rows too.
import { describe, expect, it } from 'vitest';
import { lintSheet } from '../../engine/src/lint/diagnostics.js';
import { parseForFile } from '../../engine/src/http-file/index.js';

const lint = (text: string, file = 'a.sheet', names = {}) =>
  lintSheet(text, parseForFile(text, file), names).map((d) => `${d.line}:${d.column}-${d.endColumn} ${d.severity} ${d.code}`);

describe('sheet diagnostics: line, column, severity, code', () => {
  const rows: [string, string, string[]][] = [
    ['a declared variable, a port, a JSON "a":true, a time, an email', ':h = x\nPOST http://:h:8080/a?t=12:30&m=mailto:x\nContent-Type: application/json\n\n{"a":true, "at": "12:30"}\n', []],
    ['an undeclared variable in the URL, a header and a body', 'POST http://h/:id\nX-A: :who\n\nname=:who\n', ['1:15-18 warning unknown-variable', '2:6-10 warning unknown-variable', '4:6-10 warning unknown-variable']],
    ['a declared name that prefixes a longer word is substituted, as restclient.el does', ':base = http://h\nGET :base-url/x\n', []],
    ['a variable declared below the request is not defined for it', 'GET http://h/:late\n#\n:late = 1\n', ['1:14-19 warning unknown-variable']],
    ['jq-set-var above defines; the same request does not', 'GET http://h/:t\n-> jq-set-var :t .t\n#\nGET http://h/:t\n', ['1:14-16 warning unknown-variable']],
    ['an override defines', 'GET http://h/:o\n', []],
    ['a JSON body with a variable as a value parses', ':n = 1\nPOST http://h/\nContent-Type: application/json\n\n{"n": :n, "s": ":n"}\n', []],
    ['a JSON body error at its column (non-ASCII before it counts as one)', 'POST http://h/\nContent-Type: application/vnd.api+json; charset=utf-8\n\n{"ä": 1,\n "b": }\n', ['5:7-8 error bad-argument']],
    ['an unterminated string, and text after the value', 'POST http://h/\nContent-Type: application/json\n\n{"a": "x\n#\nPOST http://h/\nContent-Type: application/json\n\n{} x\n', ['4:7-9 error bad-argument', '9:4-5 error bad-argument']],
    ['a text body under another type is not JSON', 'POST http://h/\nContent-Type: text/plain\n\n{nope\n', []],
    ['a WebSocket body of JSON messages between === lines: each message is checked alone', 'WEBSOCKET ws://h/\nContent-Type: application/json\n\n{"a": 1}\n===\n{"b": 2}\n=== wait-for-server\n{"c": }\n', ['8:7-8 error bad-argument']],
    ['a gRPC client stream of JSON messages between === lines', 'GRPC h:1/p.S/M\nContent-Type: application/json\n\n{"a": 1}\n===\n\n{"b": 2}\n', []],
    ['an HTTP body with a === line is one JSON text', 'POST http://h/\nContent-Type: application/json\n\n{"a": 1}\n===\n{"b": 2}\n', ['5:1-4 error bad-argument']],
    ['a GraphQL body is not JSON', 'POST http://h/\nContent-Type: application/json\nX-Request-Type: GraphQL\n\nquery { a }\n', []],
    ['malformed assertions and an unknown hook', 'GET http://h/\n-> expect-status 2x\n-> expect-time soon\n-> expect-nothing\n-> jq-set-var :a .a\n-> frob\n', ['2:18-20 error bad-argument', '3:16-20 error bad-argument', '4:4-18 error bad-argument', '6:4-8 warning unknown-hook']],
    ['parser diagnostics keep their code, over their line', 'GET http://h/\n#\n:v = <<\nx\n', ['3:1-8 error unterminated-multiline']],
  ];
  for (const [name, text, want] of rows) it(name, () => expect(lint(text, 'a.sheet', { overrides: [':o'] })).toEqual(want));
});

describe('.http diagnostics', () => {
  it('{{name}} undefined unless a file variable, the environment, a prompt, a request name or a handler defines it', () => {
    const text = [
      '@base = http://h',
      '# @prompt code',
      '# @name login',
      'POST {{base}}/login?c={{code}}&e={{env1}}&x={{nope}}&r={{$randomInt 1 2}}',
      '',
      '> {% client.global.set("tok", response.body.t) %}',
      '###',
      '# @name login',
      'GET {{base}}/me?t={{tok}}&v={{login.response.body.$.v}}&w={{ghost.response.body.x}}',
    ].join('\n');
    expect(lint(text, 'a.http', { environment: ['env1'] })).toEqual(['4:45-53 error unknown-variable', '8:9-14 warning bad-argument', '9:59-84 error unknown-variable']);
    expect(lint(text, 'a.http')).toContain('4:34-42 error unknown-variable');
  });
});
