// Issue 25 item 6: GraphQL in sheets. A request marked `# @graphql` (issue 37 item 4: no longer
// `Content-Type: application/graphql` alone, which restclient.el sends as written) whose
// body is a query, then optionally a blank line and a JSON object of variables (as VS Code REST
// Client writes them), goes out as `{"query", "operationName", "variables"}` with
// `Content-Type: application/json`: through `sheet/send` (C-c C-c), through `sheet run`, and
// through `sheet/curl` (C-c C-u) run by real curl in bash. All three reach one raw capture
// server on 127.0.0.1 and must put the same bytes on the wire.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureAndEngine } from './capture-engine.js';
import { runSheet } from './helpers.js';

const parts = captureAndEngine();
const { dir } = parts;

const sheet = () =>
  [
    `:base = http://127.0.0.1:${parts.capture.port}`,
    ':id = 7',
    '# a query with variables',
    '# @graphql',
    'POST :base/graphql',
    'Content-Type: application/graphql',
    'X-Trace: t1',
    '',
    'query GetUser($id: ID!) {',
    '  user(id: $id) { name }',
    '}',
    '',
    '{"id": ":id"}',
    '# an anonymous query, no variables, a charset parameter',
    '# @graphql',
    'POST :base/graphql',
    'Content-Type: application/graphql; charset=utf-8',
    '',
    '{ users { name } }',
    '# variables that are not JSON',
    '# @graphql',
    'POST :base/graphql',
    'Content-Type: application/graphql',
    '',
    'query Q { a }',
    '',
    '{"id": 7,}',
    '# not GraphQL: a JSON body is sent as written',
    'POST :base/json',
    'Content-Type: application/json',
    '',
    '{"query": "x"}',
    '# not marked: application/graphql is sent as written, as restclient.el sends it',
    'POST :base/graphql',
    'Content-Type: application/graphql',
    '',
    'query Q { a }',
    '',
  ].join('\n');

type Wire = { line: string; contentType?: string; trace?: string; body: string };
const wire = (r: { requestLine: string; headers: [string, string][]; body: Buffer }): Wire => {
  const get = (n: string) => r.headers.find(([k]) => k.toLowerCase() === n)?.[1];
  const trace = get('x-trace');
  return { line: r.requestLine, contentType: get('content-type'), ...(trace ? { trace } : {}), body: r.body.toString('utf8') };
};

const expected: Wire[] = [
  {
    line: 'POST /graphql HTTP/1.1',
    contentType: 'application/json',
    trace: 't1',
    body: JSON.stringify({ query: 'query GetUser($id: ID!) {\n  user(id: $id) { name }\n}', operationName: 'GetUser', variables: { id: '7' } }),
  },
  { line: 'POST /graphql HTTP/1.1', contentType: 'application/json', body: JSON.stringify({ query: '{ users { name } }' }) },
];
const plainJson: Wire = { line: 'POST /json HTTP/1.1', contentType: 'application/json', body: '{"query": "x"}' };
const asWritten: Wire = { line: 'POST /graphql HTTP/1.1', contentType: 'application/graphql', body: 'query Q { a }' };

describe('GraphQL requests in sheets (# @graphql)', () => {
  it('C-c C-c (sheet/send) sends the query and its variables as JSON; unmarked, as written', async () => {
    parts.capture.requests.splice(0);
    for (const line of [5, 16, 29, 34]) await parts.engine.conn.sendRequest('sheet/send', { text: sheet(), line });
    expect(parts.capture.requests.map(wire)).toEqual([...expected, plainJson, asWritten]);
  });

  it('X-Request-Type: GraphQL (VS Code REST Client) still asks for the conversion in a sheet', async () => {
    parts.capture.requests.splice(0);
    const text = `:base = http://127.0.0.1:${parts.capture.port}\nPOST :base/graphql\nX-Request-Type: GraphQL\n\n{ users { name } }\n`;
    await parts.engine.conn.sendRequest('sheet/send', { text, line: 2 });
    expect(parts.capture.requests.map(wire)[0]).toMatchObject({ contentType: 'application/json', body: JSON.stringify({ query: '{ users { name } }' }) });
  });

  it('variables that are not a JSON object are a located error naming the variables line', async () => {
    await expect(parts.engine.conn.sendRequest('sheet/send', { text: sheet(), line: 22 })).rejects.toMatchObject({
      data: { code: 'bad-argument', line: 27, hint: expect.stringContaining('JSON object') },
    });
  });

  it('sheet run sends the same bytes; the bad request is a located sheet error that ends the file (exit 2)', async () => {
    const file = path.join(dir, 'gql.sheet');
    fs.writeFileSync(file, sheet());
    parts.capture.requests.splice(0);
    const run = await runSheet(['run', file], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.out + run.err).toMatch(/gql\.sheet:27: the GraphQL variables are not a JSON object/);
    expect(parts.capture.requests.map(wire)).toEqual(expected);
  });

  it('C-c C-u (sheet/curl) exports the JSON body, and curl sends the same bytes', async () => {
    parts.capture.requests.splice(0);
    for (const line of [5, 16]) {
      const { command } = (await parts.engine.conn.sendRequest('sheet/curl', { text: sheet(), line })) as { command: string };
      expect(command).not.toContain('application/graphql');
      await new Promise<void>((resolve, reject) =>
        execFile('bash', ['-c', `${command} -s -S -o /dev/null --max-time 10`], (e) => (e ? reject(e) : resolve())),
      );
    }
    expect(parts.capture.requests.map(wire)).toEqual(expected);
  });
});
