// Issue 36 item 11: four `.http` constructs from public repositories that were sent otherwise
// than httpyac sends them: a query continued after a trailing `&` on an unindented line, a
// GraphQL body with a blank line before `fragment X on Y {`, `# @injectVariables` over a
// `< file` body, and a response httpyac recorded below its request (`HTTP/2.0 200 - - - OK`).
// Real bin, the example API's echo (/hf/) on 127.0.0.1: what arrived is compared.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';

let api: Api;
let dir: string;

beforeAll(async () => {
  api = await startApi();
  dir = tempDir('http-httpyac-diffs-');
}, 60000);

afterAll(async () => {
  await api?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Run `text` as x.http; what the echo got for each request. */
async function sent(text: string): Promise<{ method: string; args: Record<string, string>; data: string; json: unknown }[]> {
  fs.writeFileSync(path.join(dir, 'x.http'), text.replaceAll('BASE', api.url));
  const r = await runSheet(['run', 'x.http', '--report', 'json:x.json'], { cwd: dir });
  expect(r.err).toBe('');
  const rep = JSON.parse(fs.readFileSync(path.join(dir, 'x.json'), 'utf8'));
  return rep.files[0].results.map((x: { response: { body: string } }) => JSON.parse(x.response.body));
}

describe('.http constructs read as httpyac reads them', () => {
  it('a query string ending in & goes on on the next line, indented or not', async () => {
    const [a] = await sent('GET BASE/hf/items?page=0&\nsize=10&\n  sort=name\nAccept: application/json\n');
    expect(a!.args).toEqual({ page: '0', size: '10', sort: 'name' });
    expect(a!.data).toBe('');
  });

  it('a GraphQL query with a blank line before its fragment sends the fragment in the query', async () => {
    const [a] = await sent('GRAPHQL BASE/hf/graphql\n\nquery Items($n: Int) {\n  items(n: $n) { ...Item }\n}\n\nfragment Item on Item {\n  id\n}\n\n{"n": 2}\n');
    expect(a!.json).toEqual({ query: 'query Items($n: Int) {\n  items(n: $n) { ...Item }\n}\n\nfragment Item on Item {\n  id\n}', operationName: 'Items', variables: { n: 2 } });
  });

  it('# @injectVariables substitutes {{name}} in a < file body', async () => {
    fs.writeFileSync(path.join(dir, 'body.json'), '{"user": "{{who}}"}\n');
    const [a, b] = await sent('@who = ada\n\n# @injectVariables\nPOST BASE/hf/a\nContent-Type: application/json\n\n< ./body.json\n\n###\nPOST BASE/hf/b\nContent-Type: application/json\n\n< ./body.json\n');
    expect(a!.json).toEqual({ user: 'ada' });
    expect(b!.json).toEqual({ user: '{{who}}' });
  });

  it('a response httpyac recorded below the request is not sent as its body', async () => {
    const [a] = await sent('POST BASE/hf/r\nContent-Type: text/plain\n\nhello\n\nHTTP/2.0 200 - - - OK\ncontent-type: application/json\n\n{"old": true}\n');
    expect(a!.data).toBe('hello');
  });
});
