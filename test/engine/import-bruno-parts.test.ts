// The parts of the Bruno import (convert/bruno.ts, convert/bruno-scripts.ts; docs/import.md,
// "Bruno") that the end-to-end file (import-bruno.test.ts) does not reach: the assert operators,
// run as the handler runs them against a response; scripts in and out of the subset; OAuth2,
// AWS SigV4 and unsupported auth, request types and the script flow of bruno.json; a header's
// `@description` and `example` blocks as comment lines.
import { describe, expect, it } from 'vitest';
import { importBruno } from '../../engine/src/convert/bruno.js';
import { convertAssertion, convertBrunoScript } from '../../engine/src/convert/bruno-scripts.js';
import { fileToHttp } from '../../engine/src/convert/write-http.js';
import { parseHttpFile } from '../../engine/src/http-file/parse.js';

/** Run handler JS against `response`: the names of the client.test calls that passed and failed. */
function run(js: string, response: { status: number; body: unknown; headers?: Record<string, string> }): { passed: string[]; failed: string[] } {
  const passed: string[] = [];
  const failed: string[] = [];
  let ok = true;
  const client = {
    test: (name: string, fn: () => void) => {
      ok = true;
      fn();
      (ok ? passed : failed).push(name);
    },
    assert: (cond: boolean) => {
      if (!cond) ok = false;
    },
    global: { set: () => {} },
  };
  const r = { ...response, headers: { valueOf: (n: string) => response.headers?.[n.toLowerCase()] ?? null } };
  new Function('client', 'response', js)(client, r);
  return { passed, failed };
}

describe('Bruno assert lines', () => {
  const response = { status: 201, body: { name: 'Ada', n: 3, list: [1, 2], nil: null, flag: false, empty: '', small: 9.876e-12, neg: -1.5, hex: 16, big: '9007199254740993' }, headers: { 'content-type': 'application/json' } };
  const cases: [string, string, boolean][] = [
    ['res.status', 'eq 201', true],
    ['res.status', '201', true],
    ['res.status', 'neq 200', true],
    ['res.status', 'eq 200', false],
    ['res.body.n', 'gt 2', true],
    ['res.body.n', 'lte 2', false],
    ['res.body.n', "eq '3'", false],
    ['res.body.name', 'eq Ada', true],
    ['res.body.name', 'eq "Ada"', true],
    ['res.body.name', 'isString', true],
    ['res.body.n', 'isNumber', true],
    ['res.body.flag', 'isBoolean', true],
    ['res.body.nil', 'isNull', true],
    ['res.body.missing', 'isUndefined', true],
    ['res.body.name', 'isDefined', true],
    ['res.body.flag', 'isFalsy', true],
    ['res.body.list', 'isArray', true],
    ['res.body', 'isJson', true],
    ['res.body.empty', 'isEmpty', true],
    ['res.body.list', 'isNotEmpty', true],
    ['res.body.list', 'length 2', true],
    ['res.body.name', 'contains d', true],
    ['res.body', 'contains "name":"Ada"', true],
    ['res.body.name', 'notContains x', true],
    ['res.body.name', 'startsWith A', true],
    ['res.body.name', 'endsWith x', false],
    ['res.headers.content-type', 'eq application/json', true],
    ['res.body.list[1]', 'eq 2', true],
    // Bruno's value rule (bruno-js utils.js evaluateJsTemplateLiteral): what Number() reads is a
    // number, exponents and hex included; past Number.MAX_SAFE_INTEGER it stays text.
    ['res.body.small', 'eq 9.876e-12', true],
    ['res.body.neg', 'eq -1.5', true],
    ['res.body.hex', 'eq 0x10', true],
    ['res.body.big', 'eq 9007199254740993', true],
  ];
  for (const [lhs, value, pass] of cases) {
    it(`${lhs}: ${value} ${pass ? 'passes' : 'fails'}`, () => {
      const js = convertAssertion(lhs, value);
      expect(js).toBeDefined();
      const r = run(js!, response);
      expect(r[pass ? 'passed' : 'failed']).toEqual([`${lhs}: ${value}`]);
    });
  }

  it('operators and left sides without a form here are not converted', () => {
    for (const [lhs, value] of [['res.status', 'in 200,201'], ['res.body.name', 'matches ^A'], ['res.body.n', 'between 1,5'], ['res.responseTime', 'lt 200'], ['res.body.n', 'gt']]) expect(convertAssertion(lhs!, value!), `${lhs}: ${value}`).toBeUndefined();
  });
});

describe('Bruno scripts', () => {
  it('the mechanical subset converts through the Postman mapping', () => {
    const c = convertBrunoScript(['bru.setEnvVar("a", res.body.token);', 'bru.deleteVar("b");', 'test("ok", function () {', '  expect(res.getStatus()).to.equal(200);', '  expect(res.getBody().id).to.eql(7);', '});'].join('\n'));
    expect(c.js).toBe(
      [
        'client.global.set("a", response.body.token);',
        'client.global.clear("b");',
        'client.test("ok", function () {',
        '  client.assert(response.status === 200, "expected res.status to equal 200");',
        '  client.assert(JSON.stringify(response.body.id) === JSON.stringify(7), "expected res.body.id to eql 7");',
        '});',
      ].join('\n'),
    );
  });

  it('anything else fails at its line, named as written in Bruno', () => {
    expect(convertBrunoScript('// set up\nconst t = bru.getVar("t");').failed).toEqual({ line: 2, text: 'const t = bru.getVar("t");' });
    expect(convertBrunoScript('req.setHeader("a", "b");').failed).toEqual({ line: 1, text: 'req.setHeader("a", "b");' });
    expect(convertBrunoScript('expect(res.getHeader("x")).to.equal("y");').failed?.line).toBe(1);
    expect(convertBrunoScript('expect(res.status).to.be.oneOf([200, 201]);').failed?.line).toBe(1);
  });
});

/** A collection of `files` (path -> text) imported, and its one file as `.http` text. */
async function imported(files: Record<string, string>) {
  const r = await importBruno(Object.entries(files).map(([path, text]) => ({ path, text })));
  return { r, text: fileToHttp(r.files[0]!, new Set(), r.warnings) };
}

describe('Bruno auth, request types and script flow', () => {
  it('OAuth2 at folder level becomes a Security.Auth entry; AWS SigV4 the AWS shorthand; NTLM a warning', async () => {
    const { r, text } = await imported({
      'bruno.json': '{"version": "1", "name": "Auth"}',
      'api/folder.bru': ['meta {', '  name: api', '}', 'auth {', '  mode: oauth2', '}', 'auth:oauth2 {', '  grant_type: client_credentials', '  access_token_url: https://idp.example/token', '  client_id: cid', '  client_secret: csecret', '  scope: read', '  credentials_placement: basic_auth_header', '}'].join('\n'),
      'api/Get.bru': ['meta {', '  name: Get', '  seq: 1', '}', 'get {', '  url: https://api.example/a', '  auth: inherit', '}'].join('\n'),
      'S3.bru': ['meta {', '  name: S3', '  seq: 1', '}', 'get {', '  url: https://s3.example/b', '  auth: awsv4', '}', 'auth:awsv4 {', '  accessKeyId: AKID', '  secretAccessKey: SK', '  sessionToken: ', '  service: s3', '  region: eu-west-1', '  profileName: ', '}'].join('\n'),
      'Win.bru': ['meta {', '  name: Win', '  seq: 2', '}', 'get {', '  url: https://win.example/c', '  auth: ntlm', '}', 'auth:ntlm {', '  username: u', '  password: p', '  domain: d', '}'].join('\n'),
      'Socket.bru': ['meta {', '  name: Socket', '  type: ws', '  seq: 3', '}', 'ws {', '  url: wss://ws.example/', '}'].join('\n'),
    });
    expect(text).toContain('GET https://api.example/a\nAuthorization: Bearer {{$auth.token("bruno-oauth2")}}\n');
    expect(r.env.$shared!.Security).toEqual({ Auth: { 'bruno-oauth2': { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Token URL': 'https://idp.example/token', 'Client ID': 'cid', 'Client Secret': '{{oauth2_client_secret}}', Scope: 'read', 'Client Credentials': 'basic' } } });
    expect(r.privateEnv.$shared).toEqual({ oauth2_client_secret: 'csecret', aws_secret_key: 'SK' });
    expect(text).toContain('GET https://s3.example/b\nAuthorization: AWS AKID {{aws_secret_key}} region:eu-west-1 service:s3\n');
    expect(text).toMatch(/GET https:\/\/win\.example\/c\n\n?/);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.where}${w.message}`)).toEqual([
      'Socket.bru:3: a ws request: sheet import carries HTTP and GraphQL requests only; not written',
      'Win.bru:7: ntlm auth is not supported by the engine; the request is written without it (add the header it computes by hand)',
    ]);
  });

  it("post-response scripts and tests run request first (Bruno's sandwich flow), collection first when sequential", async () => {
    const files = (flow?: string) => ({
      'bruno.json': JSON.stringify({ version: '1', name: 'Flow', ...(flow ? { scripts: { flow } } : {}) }),
      'collection.bru': 'script:post-response {\n  bru.setVar("from", "collection");\n}\n',
      'R.bru': 'meta {\n  name: R\n}\nget {\n  url: https://x.example/\n}\nscript:post-response {\n  bru.setVar("from", "request");\n}\n',
    });
    const order = (t: string) => [...t.matchAll(/client\.global\.set\("from", "(\w+)"\)/g)].map((m) => m[1]);
    expect(order((await imported(files())).text)).toEqual(['request', 'collection']);
    expect(order((await imported(files('sequential'))).text)).toEqual(['collection', 'request']);
  });

  it("folder and collection post-response vars apply to each request below; the collection's docs head the file, a folder's are warned", async () => {
    const { r, text } = await imported({
      'bruno.json': '{"version": "1", "name": "Docs"}',
      'collection.bru': 'vars:post-response {\n  status: res.status\n}\ndocs {\n  The team API.\n}\n',
      'f/folder.bru': 'meta {\n  name: f\n}\nvars:post-response {\n  id: res.body.id\n  took: res.responseTime\n}\ndocs {\n  Folder notes.\n}\n',
      'f/A.bru': 'meta {\n  name: A\n  seq: 1\n}\nget {\n  url: https://x.example/a\n}\n',
      'f/B.bru': 'meta {\n  name: B\n  seq: 2\n}\nget {\n  url: https://x.example/b\n}\n',
    });
    expect(text.startsWith('# Imported from the Bruno collection "Docs" by sheet import.\n#\n# The team API.\n')).toBe(true);
    expect(text.match(/client\.global\.set\("status", response\.status\);\n\s+client\.global\.set\("id", response\.body\.id\);/g)).toHaveLength(2);
    expect(text.match(/# Bruno post-response variable \(f\/folder\.bru\), not converted: took: res\.responseTime/g)).toHaveLength(2);
    expect(r.warnings.map((w) => `${w.file}:${w.line}: ${w.message}`)).toEqual([
      'f/folder.bru:6: post-response variable took: res.responseTime is not converted (only res.status, res.body..., res.headers.NAME); kept as a comment',
      "f/folder.bru:8: the folder's docs are not carried (a .http file has no folder to hold them)",
    ]);
  });
});

describe('Bruno header descriptions and examples, as comment lines', () => {
  // .bru text as Bruno writes it (@usebruno/lang's jsonToBru: `@description(...)` above a header,
  // `example { ... }` blocks), parsed by @usebruno/lang in importBruno.
  const bru = [
    'meta {',
    '  name: Get user',
    '  type: http',
    '  seq: 1',
    '}',
    '',
    'get {',
    '  url: {{base}}/users/1',
    '  body: none',
    '  auth: none',
    '}',
    '',
    'headers {',
    "  @description('the trace id, echoed in logs')",
    '  X-Trace: on',
    '  Accept: application/json',
    '  @description("off for now")',
    '  ~X-Off: no',
    '}',
    '',
    'example {',
    '  name: Found',
    '  description: A user that exists',
    '',
    '  request: {',
    '    url: {{base}}/users/1',
    '    method: get',
    '    mode: none',
    '  }',
    '',
    '  response: {',
    '    headers: {',
    '      Content-Type: application/json',
    '    }',
    '',
    '    status: {',
    '      code: 200',
    '      text: OK',
    '    }',
    '',
    '    body: {',
    '      type: json',
    "      content: '''",
    '        {',
    '          "id": 1',
    '        }',
    "      '''",
    '    }',
    '  }',
    '}',
    '',
    'example {',
    '  name: Missing',
    '',
    '  request: {',
    '    url: {{base}}/users/999',
    '    method: get',
    '    mode: none',
    '  }',
    '',
    '  response: {',
    '    status: {',
    '      code: 404',
    '      text: Not Found',
    '    }',
    '  }',
    '}',
  ].join('\n');

  it("a header's @description is a comment line above it; a disabled header's too", async () => {
    const { r, text } = await imported({ 'bruno.json': '{"version": "1", "name": "Docs"}', 'Get user.bru': bru });
    expect(r.warnings).toEqual([]);
    expect(text).toContain(['GET {{base}}/users/1', '# the trace id, echoed in logs', 'X-Trace: on', 'Accept: application/json', '# off for now', '# X-Off: no'].join('\n'));
  });

  it('example blocks are a comment block above the request line: name, description, a request that differs, status, headers, body', async () => {
    const { text } = await imported({ 'bruno.json': '{"version": "1", "name": "Docs"}', 'Get user.bru': bru });
    expect(text).toContain(
      [
        '# @name Get_user',
        '# Bruno example "Found": A user that exists',
        '#   response: 200 OK',
        '#   Content-Type: application/json',
        '#',
        '#   {',
        '#     "id": 1',
        '#   }',
        '# Bruno example "Missing"',
        '#   request: GET {{base}}/users/999',
        '#   response: 404 Not Found',
        'GET {{base}}/users/1',
      ].join('\n'),
    );
  });

  it('the comment lines leave the request as it was: the same request line and headers when the .http file is parsed', async () => {
    const { text } = await imported({ 'bruno.json': '{"version": "1", "name": "Docs"}', 'Get user.bru': bru });
    const [req, ...more] = parseHttpFile(text).requests;
    expect(more).toEqual([]);
    expect(req!.method).toBe('GET');
    expect(req!.url).toBe('{{base}}/users/1');
    expect(req!.headers.map((h) => (h.kind === 'header' ? `${h.name}: ${h.value}` : h.name))).toEqual(['X-Trace: on', 'Accept: application/json']);
    expect(req!.body).toBeUndefined();
  });
});
