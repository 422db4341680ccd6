// `paramSerializer` in the core's fetch transport (issue 38 item 6): the AngularJS path hands it
// to `$http`, which honours it, as Restangular does; the fetch transport (ClientLib, Node) used to
// serialize with `$httpParamSerializer` whatever it was given. Each query string a real server on
// 127.0.0.1 receives is compared with what AngularJS's own serializers make of the same params
// (`$httpParamSerializerJQLike`: `a[]=1`; `$httpParamSerializer`), and `toCurl()` shows the same.
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import { createClient } from '../../client-lib/src/index';
import { ng } from './helpers/ng';

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: req.url })));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as any).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const tables: Record<string, any>[] = [
  { ids: [1, 2, 3] },
  { filter: { name: 'a b', tags: ['x', 'y'] }, page: 2 },
  { list: [{ id: 1 }, { id: 2 }], when: new Date(0), none: null, gone: undefined },
  { 'a@b': 'c:d$e,f;g', nested: [[1, 2], [3]] },
];

const withoutEmpty = (p: Record<string, any>) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== null && v !== undefined));

/** The query string the server received for a get with `params` and this HttpConfig. */
async function received(params: Record<string, any>, config: Record<string, any>): Promise<string> {
  const c = createClient({ fetch: fetch as any, baseUrl: base });
  const r: any = await c.one('echo').withHttpConfig(config as any).get(params);
  const q = String(r.url).split('?')[1];
  return q === undefined ? '' : q;
}

describe('paramSerializer in the fetch transport', () => {
  it("'$httpParamSerializerJQLike' sends what AngularJS's JQLike serializer makes (a[]=1, a[b]=c); '$httpParamSerializer' and none, its default serializer's", async () => {
    const t = ng();
    const jq = t.$injector.get('$httpParamSerializerJQLike');
    const plain = t.$injector.get('$httpParamSerializer');
    // null and undefined values are left out here: AngularJS 1.8 sends `a=`, 1.5 drops them (the library follows 1.8).
    for (const params of tables.map(withoutEmpty)) expect(await received(params, { paramSerializer: '$httpParamSerializerJQLike' }), JSON.stringify(params)).toBe(jq(params));
    for (const params of tables) {
      expect(await received(params, { paramSerializer: '$httpParamSerializer' })).toBe(plain(params));
      expect(await received(params, {})).toBe(plain(params));
    }
  });

  it('a function is called with the params and its string is the query', async () => {
    const seen: any[] = [];
    const q = await received({ b: 2, a: 1 }, { paramSerializer: (p: any) => (seen.push(p), 'custom=' + Object.keys(p).join('-')) });
    expect(q).toBe('custom=b-a');
    expect(seen).toEqual([{ b: 2, a: 1 }]);
  });

  it('toCurl() shows the URL the serializer makes', () => {
    const jq = ng().$injector.get('$httpParamSerializerJQLike');
    const c = createClient({ fetch: fetch as any, baseUrl: base });
    c.setDefaultHttpFields({ paramSerializer: '$httpParamSerializerJQLike' });
    c.setDefaultRequestParams({ ids: [1, 2] });
    const curl = c.all('items').toCurl();
    expect(curl).toContain(`${base}/items?${jq({ ids: [1, 2] })}`);
  });

  it('another service name says it cannot be used outside AngularJS', async () => {
    const c = createClient({ fetch: fetch as any, baseUrl: base });
    const e: any = await c.one('echo').withHttpConfig({ paramSerializer: 'mySerializer' }).get({ a: 1 }).then(
      () => null,
      (x: any) => x,
    );
    expect(e && e.code).toBe('INVALID_PARAM_SERIALIZER');
    expect(e.message).toContain("paramSerializer 'mySerializer'");
  });
});
