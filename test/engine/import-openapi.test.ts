// `sheet import` of real OpenAPI 3.0 and Swagger 2.0 specs (test/fixtures/imports/openapi/
// README.md): a structural check per operation (one request each, method, path with its
// parameters as {{variables}}, required query parameters, a body where the spec has one), and
// the petstore import sent by `sheet run` to a recording server on 127.0.0.1. Issue 42 items 1-3.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planImport } from '../../engine/src/convert/import.js';
import { parseForFile } from '../../engine/src/http-file/index.js';
import { runSheet, tempDir } from './helpers.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures/imports/openapi');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SPECS = ['petstore-expanded.yaml', 'uspto.yaml', 'api-with-examples.yaml', 'petstore-swagger2.json'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/** The operations of a spec as this test reads them (YAML parses JSON too). */
function operations(spec: Obj): { method: string; path: string; requiredQuery: string[]; body: boolean }[] {
  const out = [];
  for (const [p, item] of Object.entries(spec.paths as Obj)) {
    for (const m of METHODS) {
      const op = item[m];
      if (!op) continue;
      const params: Obj[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((x) => (x.$ref ? spec.components?.parameters?.[x.$ref.split('/').pop()] ?? spec.parameters?.[x.$ref.split('/').pop()] : x));
      out.push({ method: m.toUpperCase(), path: p, requiredQuery: params.filter((x) => x.in === 'query' && x.required).map((x) => x.name), body: Boolean(op.requestBody) || params.some((x) => x.in === 'body' || x.in === 'formData') });
    }
  }
  return out;
}

describe('sheet import of OpenAPI and Swagger specs: one request per operation', () => {
  for (const name of SPECS) {
    it(name, async () => {
      const text = fs.readFileSync(path.join(FIXTURES, name), 'utf8');
      const plan = await planImport([{ file: path.join(FIXTURES, name), text }]);
      expect(plan.errors).toEqual([]);
      const [file, httpText] = [...plan.outputs].find(([f]) => f.endsWith('.http'))!;
      const requests = parseForFile(httpText, file).requests;
      const ops = operations(YAML.parse(text));
      expect(requests.length).toBe(ops.length);
      for (const [i, op] of ops.entries()) {
        const r = requests[i]!;
        const [urlPath, query = ''] = r.url.split('?');
        expect([r.method, urlPath]).toEqual([op.method, `{{baseUrl}}${op.path.replace(/\{([^{}]+)\}/g, '{{$1}}')}`]);
        for (const q of op.requiredQuery) expect(query.split('&')).toContain(`${q}={{${q}}}`);
        expect([op.path, op.method, Boolean(r.body)]).toEqual([op.path, op.method, op.body]);
      }
      const env = JSON.parse(plan.outputs.get('http-client.env.json') ?? '{}');
      const spec = YAML.parse(text);
      expect(Object.keys(env).length).toBe(spec.servers?.length ?? (spec.host ? (spec.schemes?.length ?? 1) : 0));
    });
  }
});

describe('the petstore import, sent', () => {
  let server: http.Server;
  let base = '';
  const recorded: { method: string; url: string; type?: string; body: string }[] = [];
  let dir: string;

  beforeAll(async () => {
    dir = tempDir('import-openapi-');
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        recorded.push({ method: req.method!, url: req.url!, type: req.headers['content-type'], body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every operation reaches the server with its method, path and a body from the schema', async () => {
    const imp = await runSheet(['import', path.join(FIXTURES, 'petstore-expanded.yaml'), '-o', 'out'], { cwd: dir });
    expect(imp.code).toBe(0);
    expect(imp.out).toContain('wrote out/petstore-expanded.http (4 requests)');
    const run = await runSheet(['run', 'out/petstore-expanded.http', '--var', `baseUrl=${base}`, '--var', 'id=7'], { cwd: dir });
    expect(run.code, run.err + run.out).toBe(0);
    expect(recorded).toEqual([
      { method: 'GET', url: '/pets', type: undefined, body: '' },
      { method: 'POST', url: '/pets', type: 'application/json', body: '{\n  "name": ""\n}' },
      { method: 'GET', url: '/pets/7', type: undefined, body: '' },
      { method: 'DELETE', url: '/pets/7', type: undefined, body: '' },
    ]);
  });
});
