// What the corpus of public .http files (test/fixtures/http-corpus, test/engine/http-corpus.test.ts)
// revealed, one construct a block, sent to a raw capture server on 127.0.0.1 and compared with
// what the tool that wrote the file documents.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORPUS_DIR } from './http-corpus.js';
import { capture, wire, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
});
afterAll(async () => {
  await cap?.close();
});

describe('WebDAV and DeltaV methods (REST Client and httpyac accept them; httpyac examples/project/http/httpMethods.http)', () => {
  it('each starts its own request after a blank line and is sent as written', async () => {
    const got = await cap.runAll('webdav.http', ['TRACE HOST/trace', '', 'PROPFIND HOST/dav', 'Depth: 1', '', 'MKCOL HOST/dav/new', '', 'VERSION-CONTROL HOST/dav/v', '', '###', 'search HOST/dav/s', ''].join('\n'));
    expect(got.map((r) => wire(r).line)).toEqual(['TRACE /trace HTTP/1.1', 'PROPFIND /dav HTTP/1.1', 'MKCOL /dav/new HTTP/1.1', 'VERSION-CONTROL /dav/v HTTP/1.1', 'SEARCH /dav/s HTTP/1.1']);
    expect(wire(got[1]!).headers).toMatchObject({ depth: '1' });
    // TRACE has no body: the PROPFIND below it is a request, not TRACE's body.
    expect(got[0]!.body.length).toBe(0);
  });
});

describe("JetBrains' GRAPHQL method (JetBrains HTTP Client reference, \"GraphQL\"; httpyac, kulala)", () => {
  it('is sent as POST with the query and variables as GraphQL JSON, as with X-REQUEST-TYPE: GraphQL', async () => {
    const got = await cap.runAll('graphql.http', [
      '### Request with    graphql',
      '',
      'GRAPHQL HOST/graphql HTTP/1.1',
      '',
      'query GetCountry($code: ID!) {',
      'country(code: $code) { name }',
      '}',
      '',
      '{ "code": "US" }',
      '',
      'GRAPHQL HOST/graphql',
      'Content-Type: application/json; charset=utf-8',
      '',
      '{ hello }',
    ].join('\n'));
    expect(got.map(wire)).toEqual([
      { line: 'POST /graphql HTTP/1.1', headers: { 'content-type': 'application/json', 'content-length': expect.any(String) }, body: JSON.stringify({ query: 'query GetCountry($code: ID!) {\ncountry(code: $code) { name }\n}', operationName: 'GetCountry', variables: { code: 'US' } }) },
      { line: 'POST /graphql HTTP/1.1', headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': expect.any(String) }, body: JSON.stringify({ query: '{ hello }' }) },
    ]);
  });
});

describe("the .env above the file as plain variables (httpyac's examples/.env: host=https://httpbin.org; kulala.nvim)", () => {
  it('sheet run sends GET /path to the host of a .env two folders up, and a file variable still wins', async () => {
    cap.write('proj/.env', 'host=HOST\ntoken=from-dotenv\nuser=from-dotenv\n');
    const r = await cap.sheetRun('proj/examples/variables/basicAuth.http', '@user = doe\n###\nGET /basic-auth/{{user}}\nX-Token: {{token}}\n');
    expect(r.code, r.err).toBe(0);
    expect(r.got.map(wire)).toEqual([{ line: 'GET /basic-auth/doe HTTP/1.1', headers: { 'x-token': 'from-dotenv' }, body: '' }]);
  });
});

describe('Visual Studio files of the corpus, byte for byte, through sheet run (BOM; BOM and CRLF)', () => {
  const corpus = (rel: string) => fs.readFileSync(path.join(CORPUS_DIR, rel));

  it("dotnet/eShop's Catalog.API.http (a BOM): the six requests, the file variable overridden by --var", async () => {
    const r = await cap.sheetRun('Catalog.API.http', corpus('dotnet+eShop/src/Catalog.API/Catalog.API.http'), ['--var', `Catalog.API_HostAddress=${cap.base}`]);
    expect(r.code, r.err).toBe(0);
    expect(r.got.map((g) => wire(g).line)).toEqual([
      'GET /openapi/v1.json HTTP/1.1',
      'GET /api/catalog/items?api-version=1.0 HTTP/1.1',
      'GET /api/catalog/items/type/1/brand/2?api-version=1.0 HTTP/1.1',
      'GET /api/catalog/items/463/pic?api-version=99 HTTP/1.1',
      'GET /api/catalog/items/463/pic?api-version=1.0 HTTP/1.1',
      'PUT /api/catalog/items?api-version=1.0 HTTP/1.1',
    ]);
    expect(JSON.parse(wire(r.got[5]!).body)).toMatchObject({ id: 999, name: 'Item1', catalogBrandId: 2 });
  });

  it("dotnet/aspire-samples' CatalogService.http (BOM and CRLF): no \\r in the header value or the path", async () => {
    const r = await cap.sheetRun('CatalogService.http', corpus('dotnet+aspire-samples/samples/aspire-shop/AspireShop.CatalogService/CatalogService.http'), ['--var', `MyBackend_HostAddress=${cap.base}`]);
    expect(r.code, r.err).toBe(0);
    expect(r.got.map(wire)).toEqual([{ line: 'GET /api/v1/catalog/items/type/all/brand HTTP/1.1', headers: { accept: 'application/json' }, body: '' }]);
  });
});
