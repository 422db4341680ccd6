// Issue 29: `{{...}}` as JetBrains and VS Code REST Client users write them: JetBrains' `$random`
// generators, request variables without `$.` (REST Client hands the path to jsonpath-plus as
// written), and which value wins when names clash. Sent to a raw capture server on 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capture, wire, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
});
afterAll(async () => {
  await cap?.close();
});

describe('JetBrains $random generators', () => {
  it('fill the request with values of the documented shapes', async () => {
    const got = await cap.runAll('random.http', [
      'POST HOST/r?a={{$random.alphabetic(6)}}&n={{$random.alphanumeric(12)}}&h={{$random.hexadecimal(8)}}',
      'X-Int: {{$random.integer(5, 7)}} {{$random.integer(3)}} {{$random.integer()}}',
      'X-Float: {{$random.float(1.5, 2.5)}}',
      'X-Id: {{$random.uuid}} {{$uuid}}',
      'Content-Type: application/json',
      '',
      '{"email": "{{$random.email}}", "digits": "{{ $random.numeric(4) }}"}',
    ].join('\n'));
    const w = wire(got[0]!);
    expect(w.line).toMatch(/^POST \/r\?a=[A-Za-z]{6}&n=\w{12}&h=[0-9A-F]{8} HTTP\/1\.1$/);
    expect(w.headers['x-int']).toMatch(/^[56] [0-2] \d{1,3}$/);
    const f = Number(w.headers['x-float']);
    expect(f >= 1.5 && f < 2.5).toBe(true);
    expect(w.headers['x-id']).toMatch(/^[0-9a-f-]{36} [0-9a-f-]{36}$/);
    expect(JSON.parse(w.body)).toEqual({ email: expect.stringMatching(/^[a-z0-9]+@[a-z]+\.com$/), digits: expect.stringMatching(/^\d{4}$/) });
  });

  it.each([
    ['a length that is not a number', '{{$random.alphabetic(x)}}', 'bad-argument'],
    ['bounds out of order', '{{$random.integer(9, 2)}}', 'bad-argument'],
    ['a Faker generator', '{{$random.name.firstName}}', 'unsupported-construct'],
  ])('%s is a located error', async (_, ref, code) => {
    await expect(cap.runAll('random-bad.http', `\nGET HOST/x?v=${ref}\n`)).rejects.toMatchObject({ code, line: 2, message: expect.stringContaining('$random.') });
  });
});

describe('request variables without $. (REST Client passes the path to jsonpath-plus as written)', () => {
  it('reads {{login.response.body.token}} and nested paths as JSONPath', async () => {
    const got = await cap.runAll('chain.http', [
      '# @name login',
      'POST HOST/login?user=ann',
      '',
      '###',
      'GET HOST/me?t={{login.response.body.token}}&u={{login.response.body.args.user}}&id={{login.response.body.$.id}}',
    ].join('\n'));
    expect(got.map((g) => g.requestLine)).toEqual(['POST /login?user=ann HTTP/1.1', 'GET /me?t=abc123&u=ann&id=7 HTTP/1.1']);
  });
});

describe('which value wins (JetBrains: environment, global, in-place; REST Client: file, then environment)', () => {
  const FILE = [
    '@who = file-who',
    '@team = file-team',
    '@slug = file-slug',
    '',
    '### one',
    'GET {{host}}/one?who={{who}}&team={{team}}&slug={{slug}}',
    '',
    '> {%',
    '  client.global.set("slug", "global-slug");',
    '  client.global.set("who", "global-who");',
    '%}',
    '',
    '### two',
    'GET {{host}}/two?who={{who}}&team={{team}}&slug={{slug}}',
  ].join('\n');

  it('sheet run: the JetBrains environment beats globals and @vars, globals beat @vars, @vars beat the VS Code environment, --var beats all', async () => {
    cap.write('order/http-client.env.json', JSON.stringify({ dev: { host: 'HOST', who: 'env-who' } }));
    cap.write('order/.vscode/settings.json', JSON.stringify({ 'rest-client.environmentVariables': { dev: { team: 'vs-team' } } }));
    const r = await cap.sheetRun('order/order.http', FILE, ['--env', 'dev']);
    expect(r.err).toBe('');
    expect(r.got.map((g) => g.requestLine)).toEqual([
      'GET /one?who=env-who&team=file-team&slug=file-slug HTTP/1.1',
      'GET /two?who=env-who&team=file-team&slug=global-slug HTTP/1.1',
    ]);
    const v = await cap.sheetRun('order/order.http', FILE, ['--env', 'dev', '--var', 'slug=cli', '--var', 'who=cli-who']);
    expect(v.got.map((g) => g.requestLine)).toEqual([
      'GET /one?who=cli-who&team=file-team&slug=cli HTTP/1.1',
      // A value a handler sets is a global, whoever set the name before: the environment wins again.
      'GET /two?who=env-who&team=file-team&slug=global-slug HTTP/1.1',
    ]);
  });
});
