// Issue 29: JetBrains scripts as IntelliJ users write them: the `request` object in response
// handlers (method, url(), body(), headers, environment) and pre-request scripts `< {% %}` /
// `< ./script.js` with request.variables.set, run by `sheet run` (the Session C-c C-c uses too)
// against a raw capture server on 127.0.0.1; the requests that arrive show what the scripts set.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpToSheet } from '../../engine/src/convert/sheet-http.js';
import { capture, wire, type Capture } from './http-field.js';

let cap: Capture;
beforeAll(async () => {
  cap = await capture();
  cap.write('js/http-client.env.json', JSON.stringify({ dev: { host: 'HOST', who: 'ada' } }));
  cap.write('js/pre.js', 'request.variables.set("fromFile", request.method.toLowerCase());\n');
});
afterAll(async () => {
  await cap?.close();
});

describe('the JetBrains request object in response handlers', () => {
  it('reads method, url(), body(), headers and the environment; what it sets reaches the next request', async () => {
    const r = await cap.sheetRun('js/handler.http', [
      'POST {{host}}/items?who={{who}}',
      'Content-Type: application/json',
      'X-Who: {{who}}',
      '',
      '{"name": "{{who}}"}',
      '',
      '> {%',
      '  client.global.set("seen", [request.method, request.url(), request.body(),',
      '    request.headers.findByName("x-who").value(), request.headers.findByName("X-Who").getRawValue() === "{{" + "who}}",',
      '    request.headers.all().length, request.environment.get("who"), request.environment.get("nope")].join("|"));',
      '  client.test("request is there", function () { client.assert(request.method === "POST", request.method); });',
      '%}',
      '',
      '###',
      'POST {{host}}/seen',
      'Content-Type: text/plain',
      '',
      '{{seen}}',
    ].join('\n'), ['--env', 'dev']);
    expect(r.err).toBe('');
    expect(r.out).toContain('1 assertions, 0 failed');
    expect(r.code).toBe(0);
    expect(wire(r.got[1]!).body).toBe(`POST|${cap.base}/items?who=ada|{"name": "ada"}|ada|true|2|ada|`);
  });
});

describe('JetBrains pre-request scripts', () => {
  it('< {% %} and < ./script.js set per-request variables and globals before the request is resolved', async () => {
    const r = await cap.sheetRun('js/pre.http', [
      '< {%',
      '  request.variables.set("slug", "pre-" + request.environment.get("who"));',
      '  client.global.set("url", request.url.tryGetSubstituted());',
      '  client.global.set("raw", request.url.getRaw());',
      '%}',
      '< ./pre.js',
      'GET {{host}}/items/{{slug}}?m={{fromFile}}',
      'X-Url: {{url}}',
      'X-Raw: {{raw}}',
      '',
      '###',
      '# the per-request variable is gone; the global stays',
      'GET {{host}}/after?url={{url}}',
    ].join('\n'), ['--env', 'dev']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.got.map(wire)).toEqual([
      // tryGetSubstituted leaves {{slug}} and {{fromFile}}: they are not known before the script sets them.
      { line: 'GET /items/pre-ada?m=get HTTP/1.1', headers: { 'x-url': `${cap.base}/items/{{slug}}?m={{fromFile}}`, 'x-raw': '{{host}}/items/{{slug}}?m={{fromFile}}' }, body: '' },
      // A global is text: the {{...}} it holds are sent as they are, not looked up again.
      { line: `GET /after?url=${cap.base}/items/{{slug}}?m={{fromFile}} HTTP/1.1`, headers: {}, body: '' },
    ]);
  });

  it('a script error is a failed assertion of its request; a per-request variable does not outlive its request', async () => {
    const r = await cap.sheetRun('js/pre2.http', [
      '< {% request.variables.set("v", "1"); %}',
      'GET {{host}}/one?v={{v}}',
      '',
      '###',
      '< {% throw new Error("boom") %}',
      'GET {{host}}/two',
      '',
      '###',
      'GET {{host}}/three?v={{v}}',
    ].join('\n'), ['--env', 'dev']);
    expect(r.got.map((g) => g.requestLine)).toEqual(['GET /one?v=1 HTTP/1.1', 'GET /two HTTP/1.1']);
    expect(r.out).toContain('pre2.http:5: pre-request script (line 5): failed: boom');
    expect(r.out).toContain('pre2.http:9: {{v}} is not defined');
    expect(r.code).toBe(2);
  });
});

describe('a pre-request script between requests separated by blank lines', () => {
  it('goes with the request below it', async () => {
    const got = await cap.runAll('js/blank.http', [
      'GET HOST/a',
      '',
      '< {%',
      '  request.variables.set("x", "7");',
      '%}',
      '# the next one',
      'GET HOST/b?x={{x}}',
    ].join('\n'));
    expect(got.map((g) => g.requestLine)).toEqual(['GET /a HTTP/1.1', 'GET /b?x=7 HTTP/1.1']);
  });
});

describe('sheet convert', () => {
  it('names a pre-request script it cannot convert', () => {
    const r = httpToSheet('< {% request.variables.set("a", 1) %}\nGET http://h/{{a}}\n');
    expect(r.problems).toContainEqual(expect.objectContaining({ line: 1, construct: '< {% ... %}' }));
  });
});
