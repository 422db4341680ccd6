// `sheet import` of a Postman v2.1 collection written for this test, with what the real ones in
// import-postman.test.ts lack: Bearer and API-key auth (header and query), a request overriding
// its folder's auth, disabled headers and query parameters, JSON with its language, GraphQL,
// form-data with a file part, and the pm.* subset converted. Sent by newman and by `sheet run`
// to a recording server on 127.0.0.1 and compared; the text of the import checked for what only
// the file shows (comments, secrets, handlers). Also the bad inputs: exit 2, nothing written.
import fs from 'node:fs';
import path from 'node:path';
import newman from 'newman';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
import { startRecordingServer, type Recorded, type RecordingServer } from './recording-server.js';

const OWN = new Set(['host', 'connection', 'content-length', 'user-agent', 'accept', 'accept-encoding', 'postman-token', 'cache-control', 'transfer-encoding']);
let rec: RecordingServer;
let base = '';
let dir: string;

const collection = () => ({
  info: { name: 'Kinds', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  variable: [{ key: 'base', value: base }],
  auth: { type: 'bearer', bearer: [{ key: 'token', value: 's3cr3t-token', type: 'string' }] },
  item: [
    {
      name: 'Users',
      item: [
        {
          name: 'List users',
          event: [{ listen: 'test', script: { exec: ["pm.test('ok', function () {", '  pm.response.to.have.status(200);', "  pm.expect(pm.response.json().ok).to.equal(true);", '});', "pm.collectionVariables.set('seen', 'yes');"] } }],
          request: {
            method: 'GET',
            header: [{ key: 'X-Trace', value: 'on' }, { key: 'X-Off', value: 'no', disabled: true }],
            url: { raw: '{{base}}/users?page=2&debug=1', host: ['{{base}}'], path: ['users'], query: [{ key: 'page', value: '2' }, { key: 'debug', value: '1', disabled: true }] },
          },
        },
        {
          name: 'Create user',
          request: {
            method: 'POST',
            auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-Api-Key' }, { key: 'value', value: 'k-123' }, { key: 'in', value: 'header' }] },
            url: '{{base}}/users',
            body: { mode: 'raw', raw: '{"name": "Ada"}', options: { raw: { language: 'json' } } },
          },
        },
      ],
    },
    {
      name: 'Query key',
      request: { method: 'GET', auth: { type: 'apikey', apikey: [{ key: 'key', value: 'api_key' }, { key: 'value', value: '{{key}}' }, { key: 'in', value: 'query' }] }, url: '{{base}}/search?q=x' },
    },
    {
      name: 'GraphQL',
      request: { method: 'POST', auth: { type: 'noauth' }, url: '{{base}}/graphql', body: { mode: 'graphql', graphql: { query: 'query Me { me { id } }', variables: '{"a": 1}' } } },
    },
    {
      name: 'Upload',
      request: {
        method: 'POST',
        auth: { type: 'noauth' },
        url: '{{base}}/upload',
        body: { mode: 'formdata', formdata: [{ key: 'title', value: 'hello', type: 'text' }, { key: 'doc', type: 'file', src: 'note.txt' }, { key: 'off', value: 'x', type: 'text', disabled: true }] },
      },
    },
  ],
});

beforeAll(async () => {
  dir = tempDir('import-kinds-');
  rec = await startRecordingServer({ own: OWN, answer: '{"ok": true}', sameBoundary: true });
  base = rec.base;
  fs.writeFileSync(path.join(dir, 'kinds.postman_collection.json'), JSON.stringify(collection(), null, 2));
  fs.writeFileSync(path.join(dir, 'note.txt'), 'a note\n');
});

afterAll(async () => {
  await rec.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sheet import: auth, bodies and scripts of a v2.1 collection', () => {
  it('sends what newman sends', async () => {
    rec.reset();
    await new Promise<void>((resolve, reject) =>
      newman.run({ collection: collection(), envVar: [{ key: 'key', value: 'q-key' }], workingDir: dir, reporters: [] }, (e) => (e ? reject(e) : resolve())),
    );
    const expected = rec.recorded;
    expect(expected.length).toBe(5);
    const imp = await runSheet(['import', 'kinds.postman_collection.json', '-o', 'out'], { cwd: dir });
    expect(imp.code, imp.err).toBe(0);
    // The file part's path is relative to the collection's working directory: beside the .http file here.
    fs.copyFileSync(path.join(dir, 'note.txt'), path.join(dir, 'out/note.txt'));
    rec.reset();
    const run = await runSheet(['run', 'out/Kinds.http', '--var', 'key=q-key'], { cwd: dir });
    expect(run.code, run.out + run.err).toBe(0);
    // GraphQL: the engine adds operationName (as REST Client and httpyac send it) and writes the
    // variables compactly; compared as JSON without operationName (docs/import.md).
    const graphql = (rs: Recorded[]) => rs.map((r) => (r.url === '/graphql' ? { ...r, body: JSON.stringify({ ...JSON.parse(r.body), operationName: undefined }) } : r));
    expect(graphql(rec.recorded)).toEqual(graphql(expected));
    expect(JSON.parse(rec.recorded.find((r) => r.url === '/graphql')!.body).operationName).toBe('Me');
  });

  it('writes disabled parts as comments, secrets in the private file, pm.* as a JetBrains handler', () => {
    const text = fs.readFileSync(path.join(dir, 'out/Kinds.http'), 'utf8');
    expect(text).toContain('### Users / List users\n# @name List_users\n# disabled query parameter: debug=1\n');
    expect(text).toContain('# X-Off: no\n');
    expect(text).toContain('Authorization: Bearer {{bearer_token}}\n');
    expect(text).toContain('# disabled form-data field: off=x\n');
    expect(text).toContain("  client.assert(response.status === 200, \"expected status 200\");\n");
    expect(text).toContain('  client.assert(response.body.ok === true, ');
    expect(text).toContain("client.global.set('seen', 'yes');");
    expect(text).not.toContain('s3cr3t-token');
    const priv = JSON.parse(fs.readFileSync(path.join(dir, 'out/http-client.private.env.json'), 'utf8'));
    expect(priv).toEqual({ $shared: { bearer_token: 's3cr3t-token', api_key: 'k-123' } });
  });
});

describe('sheet import: bad input writes nothing and exits 2', () => {
  const cases: [string, string, RegExp][] = [
    ['truncated.json', '{\n  "info": {\n    "name": "x",\n', /truncated\.json:3: not valid JSON: it ends too early/],
    ['broken.json', '{\n  "info": {},\n  "item": [,]\n}\n', /broken\.json:3: not valid JSON: ValueExpected/],
    ['bad.yaml', 'openapi: 3.0.0\ninfo:\n  title: x\n paths: {}\n', /bad\.yaml:4: not valid YAML: All mapping items must start at the same column/],
    ['other.json', '{"hello": "world"}', /other\.json: not a Postman collection .* none of info\.schema, values, log\.entries, openapi or swagger is there/],
    ['v1.json', '{"id": "a", "name": "old", "order": [], "requests": []}', /v1\.json: a Postman collection v1, which is not supported: export it again as v2\.1/],
    ['future.json', '{"info": {"name": "x", "schema": "https://schema.getpostman.com/json/collection/v3.0.0/collection.json"}, "item": []}', /future\.json: Postman collection schema v3\.0\.0 is not supported/],
    ['ref.yaml', 'openapi: 3.0.0\ninfo: {title: x, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200": {$ref: "#/components/responses/Missing"}\n', /ref\.yaml: .*Missing/],
  ];
  for (const [name, text, message] of cases) {
    it(name, async () => {
      fs.writeFileSync(path.join(dir, name), text);
      const out = `bad-${name}`;
      const r = await runSheet(['import', name, 'kinds.postman_collection.json', '-o', out], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err).toContain('sheet import: nothing written');
      expect(fs.existsSync(path.join(dir, out))).toBe(false);
    });
  }

  it('an output file that exists is kept without --force', async () => {
    fs.mkdirSync(path.join(dir, 'keep'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'keep/Kinds.http'), 'GET http://127.0.0.1/mine\n');
    const r = await runSheet(['import', 'kinds.postman_collection.json', '-o', 'keep'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/Kinds\.http exists; give another -o OUTDIR, or --force to replace it; nothing written/);
    expect(fs.readdirSync(path.join(dir, 'keep'))).toEqual(['Kinds.http']);
    expect((await runSheet(['import', 'kinds.postman_collection.json', '-o', 'keep', '--force'], { cwd: dir })).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'keep/Kinds.http'), 'utf8')).toContain('### GraphQL');
  });
});
