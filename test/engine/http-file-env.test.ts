// Environments of .http files (engine/src/http-file/environment.ts) on real files in a temporary
// directory tree, and the {{...}} substitution pass (engine/src/resolve/http-vars.ts).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnvironment } from '../../engine/src/http-file/environment.js';
import { substituteHttp, type HttpVarContext } from '../../engine/src/resolve/http-vars.js';
import { tempDir } from './helpers.js';

const root = tempDir('http-env-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const write = (rel: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  fs.writeFileSync(path.join(root, rel), text);
};

write('proj/http-client.env.json', JSON.stringify({ $shared: { api: 'v1' }, dev: { host: 'http://127.0.0.1:1', user: 'pub' }, prod: { host: 'http://127.0.0.1:2' } }));
write('proj/http-client.private.env.json', JSON.stringify({ dev: { user: 'secret', ssl: { a: 1 } } }));
write('proj/.vscode/settings.json', '{\n  // VS Code allows comments\n  "rest-client.environmentVariables": {\n    "$shared": { "api": "v0", "lang": "en" },\n    "local": { "host": "http://127.0.0.1:3" },\n  }\n}\n');
write('proj/requests/deep/a.http', 'GET {{host}}\n');
write('proj/requests/deep/.env', 'SECRET=dotenv-value\n');
write('bad/http-client.env.json', '{\n  "dev": { "host": \n}');
write('bad/a.http', 'GET {{host}}\n');
const file = path.join(root, 'proj/requests/deep/a.http');

describe('loadEnvironment', () => {
  it('walks up to the JetBrains files; the private file wins; $shared underneath', () => {
    const e = loadEnvironment(file, 'dev');
    expect(e.variables).toEqual({ SECRET: 'dotenv-value', api: 'v1', lang: 'en', host: 'http://127.0.0.1:1', user: 'secret' });
    expect(e.available).toEqual(['dev', 'local', 'prod']);
    expect(e.files.map((f) => path.relative(root, f))).toEqual(['proj/.vscode/settings.json', 'proj/http-client.env.json', 'proj/http-client.private.env.json', 'proj/requests/deep/.env']);
  });

  it('reads VS Code settings with comments and trailing commas', () => {
    expect(loadEnvironment(file, 'local').variables).toEqual({ SECRET: 'dotenv-value', api: 'v1', lang: 'en', host: 'http://127.0.0.1:3' });
  });

  it('without a name: $shared only (and the .env); the .env next to the file', () => {
    const e = loadEnvironment(file);
    expect(e.variables).toEqual({ SECRET: 'dotenv-value', api: 'v1', lang: 'en' });
    expect(e.dotenv).toEqual({ SECRET: 'dotenv-value' });
  });

  it('the nearest .env above the file gives plain variables, under the environment files (httpyac, kulala.nvim)', () => {
    write('dotenv/.env', 'host=https://from-dotenv\nuser=dot\n');
    write('dotenv/http-client.env.json', JSON.stringify({ dev: { user: 'jb' } }));
    write('dotenv/requests/deep/a.http', 'GET {{host}}\n');
    const e = loadEnvironment(path.join(root, 'dotenv/requests/deep/a.http'), 'dev');
    expect(e.variables).toEqual({ host: 'https://from-dotenv', user: 'jb' });
    // Only a file variable or the JetBrains file outranks .env values: they are not JetBrains'.
    expect([...e.jetbrains]).toEqual(['user']);
    // {{$dotenv NAME}} keeps VS Code's rule: the .env next to the file only.
    expect(e.dotenv).toEqual({});
    expect(e.files.map((f) => path.relative(root, f))).toEqual(['dotenv/http-client.env.json', 'dotenv/.env']);
  });

  it('$schema (kulala.nvim tests/functional/fixtures/export/http-client.env.json) is no environment', () => {
    write('schema/http-client.env.json', JSON.stringify({ $schema: 'https://example.com/http-client.env.schema.json', $shared: { a: '1' }, dev: { b: '2' } }));
    write('schema/a.http', 'GET {{b}}\n');
    const e = loadEnvironment(path.join(root, 'schema/a.http'), 'dev');
    expect(e.available).toEqual(['dev']);
    expect(e.variables).toEqual({ a: '1', b: '2' });
    expect(() => loadEnvironment(path.join(root, 'schema/a.http'), '$schema')).toThrow(expect.objectContaining({ code: 'bad-environment' }));
  });

  it("Visual Studio's http-client.env.json.user beside the public file overrides it, under the JetBrains private file", () => {
    write('vsuser/http-client.env.json', JSON.stringify({ $shared: { token: 'shared' }, Development: { baseUrl: 'http://public', secret: 'public' } }));
    write('vsuser/http-client.env.json.user', JSON.stringify({ $shared: { token: 'user-token' }, Development: { secret: 'local-secret' }, Mine: { baseUrl: 'http://mine' } }));
    write('vsuser/api/a.http', 'GET {{baseUrl}}\n');
    const e = loadEnvironment(path.join(root, 'vsuser/api/a.http'), 'Development');
    expect(e.variables).toEqual({ token: 'user-token', baseUrl: 'http://public', secret: 'local-secret' });
    expect(e.available).toEqual(['Development', 'Mine']);
    expect(e.files.map((f) => path.relative(root, f))).toEqual(['vsuser/http-client.env.json', 'vsuser/http-client.env.json.user']);
    write('vsuser/http-client.private.env.json', JSON.stringify({ Development: { secret: 'private' } }));
    expect(loadEnvironment(path.join(root, 'vsuser/api/a.http'), 'Development').variables.secret).toBe('private');
  });

  it('an unknown name lists the known ones', () => {
    expect(() => loadEnvironment(file, 'staging')).toThrow(expect.objectContaining({ code: 'bad-environment', hint: 'Choose one of: dev, local, prod.' }));
  });

  it('broken JSON names the file and its line', () => {
    expect(() => loadEnvironment(path.join(root, 'bad/a.http'), 'dev')).toThrow(expect.objectContaining({ code: 'bad-environment', line: 3 }));
  });
});

describe('substituteHttp', () => {
  const now = () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  const ctx: HttpVarContext = {
    fileVars: new Map([['host', 'http://{{hostname}}:{{port}}'], ['hostname', '127.0.0.1'], ['loop', '{{loop}}']]),
    env: { port: '8080', api: 'v1' },
    overrides: new Map([['api', 'v2']]),
    requests: new Map([
      ['login', {
        request: { headers: [['Content-Type', 'application/json']], body: '{"user":"u1"}' },
        response: { status: 200, headers: [['X-Token', 'tok']], body: '{"token":"abc","items":[{"id":7}]}' },
      }],
    ]),
    dotenv: { SECRET: 's3' },
    processEnv: { HOME_DIR: '/home/x' },
    now,
  };
  it.each([
    ['nested file and environment variables', '{{host}}/{{ api }}', 'http://127.0.0.1:8080/v2'],
    ['JSONPath on a response body', '{{login.response.body.$.token}}', 'abc'],
    ['JSONPath to a non-string is JSON', '{{login.response.body.$.items[0]}}', '{"id":7}'],
    ['a response header', '{{login.response.headers.X-Token}}', 'tok'],
    ['the whole request body', '{{login.request.body.*}}', '{"user":"u1"}'],
    ['$timestamp', '{{$timestamp}}', String(Date.UTC(2024, 0, 2, 3, 4, 5) / 1000)],
    ['$timestamp with an offset', '{{$timestamp -1 d}}', String(Date.UTC(2024, 0, 1, 3, 4, 5) / 1000)],
    ['$datetime rfc1123', '{{$datetime rfc1123}}', 'Tue, 02 Jan 2024 03:04:05 GMT'],
    ['$datetime iso8601 with an offset', '{{$datetime iso8601 1 h}}', '2024-01-02T04:04:05.000Z'],
    // REST Client's custom formats: Day.js tokens in quotes (httpyac's examples/variables/restClient.http).
    ['$datetime "DD.MM.YYYY"', '{{$datetime "DD.MM.YYYY"}}', '02.01.2024'],
    ["$datetime 'DD.MM.YYYY HH:mm' with an offset", "{{$datetime 'DD.MM.YYYY HH:mm' 3 d}}", '05.01.2024 03:04'],
    ['$datetime with a quarter offset', '{{$datetime iso8601 1 Q}}', '2024-04-02T03:04:05.000Z'],
    ['$processEnv', '{{$processEnv HOME_DIR}}', '/home/x'],
    ['$dotenv', '{{$dotenv SECRET}}', 's3'],
  ])('%s', (_, text, out) => {
    expect(substituteHttp(text, ctx, 1)).toBe(out);
  });

  it("$date: kulala.nvim's local date, YYYY-MM-DD (fg-gas-backend's api.http writes {{$date}}T12:00:00Z)", () => {
    const d = now();
    const local = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    expect(substituteHttp('"{{$date}}T12:00:00Z"', ctx, 1)).toBe(`"${local}T12:00:00Z"`);
  });

  it("$localDatetime as REST Client writes it (Day.js in local time): iso8601 without milliseconds, rfc1123 with the zone's offset, custom formats", () => {
    const d = now();
    const p2 = (n: number) => String(Math.abs(n)).padStart(2, '0');
    const off = -d.getTimezoneOffset();
    const zone = (sep: string) => `${off >= 0 ? '+' : '-'}${p2(Math.floor(Math.abs(off) / 60))}${sep}${p2(Math.abs(off) % 60)}`;
    const ymd = `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}`;
    const hms = `${p2(d.getHours())}:${p2(d.getMinutes())}:${p2(d.getSeconds())}`;
    expect(substituteHttp('{{$localDatetime iso8601}}', ctx, 1)).toBe(`${ymd}T${hms}${zone(':')}`);
    expect(substituteHttp('{{$localDatetime rfc1123}}', ctx, 1)).toMatch(new RegExp(`^[A-Z][a-z]{2}, ${p2(d.getDate())} [A-Z][a-z]{2} ${d.getFullYear()} ${hms} \\${zone('')}$`));
    expect(substituteHttp('{{$localDatetime "YYYY-MM-DD HH:mm"}}', ctx, 1)).toBe(`${ymd} ${hms.slice(0, 5)}`);
  });

  it('$guid and $randomInt', () => {
    expect(substituteHttp('{{$guid}}', ctx)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (let i = 0; i < 50; i++) expect(Number(substituteHttp('{{$randomInt 5 8}}', ctx))).toBeGreaterThanOrEqual(5);
    expect(new Set(Array.from({ length: 60 }, () => substituteHttp('{{$randomInt 5 8}}', ctx)))).toEqual(new Set(['5', '6', '7']));
  });

  it.each([
    ['an unknown name', '{{nope}}', 'unknown-variable'],
    ['a request not sent yet', '{{other.response.body.$.a}}', 'unknown-variable'],
    ["kulala's response.cookies", '{{login.response.cookies.sample.value}}', 'unsupported-construct'],
    ['a cycle', '{{loop}}', 'vars-cycle'],
    ['an unsupported system variable', '{{$aadToken}}', 'unsupported-construct'],
    ['bad $randomInt arguments', '{{$randomInt 9 1}}', 'bad-argument'],
    ['a date format without quotes', '{{$datetime DD-MM-YYYY}}', 'bad-argument'],
    ['a .NET or Java date pattern (Day.js would read dd as a weekday)', '{{$datetime "yyyy-MM-dd"}}', 'unsupported-construct'],
    ['an offset unit REST Client has not', '{{$datetime iso8601 1 days}}', 'bad-argument'],
  ])('%s is a located error', (_, text, code) => {
    expect(() => substituteHttp(text, ctx, 12)).toThrow(expect.objectContaining({ code, line: 12 }));
  });
});
