// The parts `sheet import` uses instead of the heavy paths (issue 42, "Speed"; docs/import.md):
// postman-url.ts prints a collection's URL as postman-collection's `new Url(...)` did, and
// openapi-refs.ts reads local `$ref`s as @apidevtools/swagger-parser's `dereference` copied them.
// Each is compared with the library it replaces, on a table of the shapes collections and specs use.
import SwaggerParser from '@apidevtools/swagger-parser';
import { Url } from 'postman-collection';
import { describe, expect, it } from 'vitest';
import { postmanUrl } from '../../engine/src/convert/postman-url.js';
import { collectRefs, pointerTarget, resolvedView } from '../../engine/src/convert/openapi-refs.js';
import { importOpenApi } from '../../engine/src/convert/openapi.js';

/** What the import printed before, through the SDK: path variables with a value replaced, disabled query parameters dropped. */
function viaSdk(url: unknown): string {
  const u = new Url(url as string);
  for (const v of u.variables.all()) if (v.key && v.value !== undefined && v.value !== '') u.path = (u.path ?? []).map((seg) => (seg === `:${v.key}` ? String(v.value) : seg));
  u.query.remove((q: { disabled?: boolean }) => q.disabled === true, {});
  return u.toString();
}

const URLS: unknown[] = [
  'https://postman-echo.com/get?foo=bar&x',
  'http://u:p@{{host}}.example.com:8080/a/:id/b?x=1&y&=&&z=a=b#frag',
  '{{base}}/users',
  'localhost:3000/path/',
  '',
  { raw: '{{base}}/f1/r2?a=1&b=2', host: ['{{base}}'], path: ['f1', 'r2'], query: [{ key: 'a', value: '1' }, { key: 'b', value: '2', disabled: true }] },
  { raw: 'https://x.io/users/:id', protocol: 'https', host: ['x', 'io'], path: ['users', ':id', ':other'], variable: [{ key: 'id', value: '42' }, { id: 'other', value: 'legacy' }] },
  { protocol: 'http', host: 'api.{{domain}}.com', port: '81', path: '/a/b', query: 'q=a%20b&r=&s', hash: 'h' },
  { host: ['h'], path: '/', query: [{ key: 'k&=', value: 'v=&#{{var&x}}' }, { key: null, value: 'only' }, { key: 'all', value: 'off', disabled: true }] },
  { host: ['h'], path: ['p'], query: [{ key: 'off', value: '1', disabled: true }] },
  { raw: 'https://a.b/c', host: ['a', 'b'], path: ['c'], query: { mapped: 'yes', two: '2' } },
  { host: ['h'], path: ['v', ':n'], variable: [{ key: 'n', value: '' }] },
];

describe('postmanUrl: a Postman URL as the SDK prints it', () => {
  for (const url of URLS) {
    it(JSON.stringify(url), () => {
      expect(postmanUrl(url)).toBe(viaSdk(url));
    });
  }
});

/** A spec of the `$ref` shapes: chains, siblings, arrays of refs, refs inside arrays, a cycle, `~1` escapes. */
function spec(): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'refs', version: '1' },
    paths: {
      '/a/{id}': {
        parameters: [{ $ref: '#/components/parameters/Id' }],
        post: {
          parameters: [{ $ref: '#/components/parameters/Alias' }, { name: 'q', in: 'query', schema: { $ref: '#/components/schemas/Limit' } }],
          requestBody: { $ref: '#/components/requestBodies/Thing' },
          responses: { 200: { $ref: '#/components/responses/Ok' } },
        },
      },
      '/b': { $ref: '#/x-paths/~1b' },
    },
    'x-paths': { '/b': { get: { responses: { 200: { description: 'b' } } } } },
    components: {
      parameters: { Id: { name: 'id', in: 'path', required: true, schema: { type: 'integer', example: 7 } }, Alias: { $ref: '#/components/parameters/Id' } },
      schemas: {
        Limit: { type: 'integer', default: 10 },
        Thing: { type: 'object', required: ['name', 'tags'], properties: { name: { $ref: '#/components/schemas/Name', description: 'sibling wins' }, tags: { type: 'array', items: { $ref: '#/components/schemas/Name' } }, parent: { $ref: '#/components/schemas/Thing' } } },
        Name: { type: 'string', example: 'n', description: 'a name' },
      },
      requestBodies: { Thing: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      responses: { Ok: { description: 'ok' } },
    },
  };
}

describe('resolvedView: local $refs read as swagger-parser dereferences them', () => {
  it('reads parameters, bodies, schemas, chains and sibling keys as the dereferenced document', async () => {
    // swagger-parser's default: cycles become object cycles (with `circular: 'ignore'`, which the
    // import used, a request body whose schema is recursive stayed a bare `$ref`: see the next tests).
    const deref = (await SwaggerParser.dereference(spec() as never)) as Record<string, any>;
    const view = resolvedView(spec());
    const post = view.paths['/a/{id}'].post;
    const want = deref.paths['/a/{id}'].post;
    expect(post.parameters.map((p: object) => ({ ...p }))).toEqual(want.parameters.map((p: object) => ({ ...p })));
    expect(JSON.parse(JSON.stringify(view.paths['/a/{id}'].parameters))).toEqual(JSON.parse(JSON.stringify(deref.paths['/a/{id}'].parameters)));
    const schema = post.requestBody.content['application/json'].schema;
    const wantSchema = want.requestBody.content['application/json'].schema;
    expect(schema.properties.name).toEqual(wantSchema.properties.name);
    expect(schema.properties.name.description).toBe('sibling wins');
    expect(schema.properties.tags.items).toEqual(wantSchema.properties.tags.items);
    expect(JSON.parse(JSON.stringify(view.paths['/b']))).toEqual(JSON.parse(JSON.stringify(deref.paths['/b'])));
  });

  it('gives a request whose body schema is recursive its body (swagger-parser left it a bare $ref)', async () => {
    const r = await importOpenApi(spec(), 'refs.json', 'refs');
    const post = r.files[0]!.requests.find((q) => q.method === 'POST')!;
    expect(post.url).toBe('{{baseUrl}}/a/{{id}}?q={{q}}');
    expect(post.body).toEqual({ kind: 'raw', text: JSON.stringify({ name: 'n', tags: [] }, null, 2) });
    expect(r.files[0]!.requests.map((q) => `${q.method} ${q.url}`)).toEqual(['POST {{baseUrl}}/a/{{id}}?q={{q}}', 'GET {{baseUrl}}/b']);
  });

  it('reads a cycle as the same object, so a walk can stop on identity', () => {
    const thing = resolvedView(spec()).components.schemas.Thing;
    expect(thing.properties.parent).toBe(thing);
    expect(thing.properties.parent.properties.parent).toBe(thing);
  });

  it('finds a $ref that names nothing, with where it is, and a $ref to another file', () => {
    const doc = spec();
    doc.paths['/a/{id}'].post.responses[404] = { $ref: '#/components/responses/Missing' };
    const refs = collectRefs(doc);
    expect(refs.external).toBeUndefined();
    const dangling = [...refs.local].filter(([ref]) => pointerTarget(doc, ref) === undefined);
    expect(dangling).toEqual([['#/components/responses/Missing', 'paths./a/{id}.post.responses.404']]);
    doc.components.schemas.Other = { $ref: 'common.yaml#/Thing' };
    expect(collectRefs(doc).external).toEqual({ ref: 'common.yaml#/Thing', where: 'components.schemas.Other' });
  });
});
