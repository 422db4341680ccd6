// `withHttpConfig({responseType: 'arraybuffer' | 'blob'})` through AngularJS $http (its
// $httpBackend mock hands the object over as XMLHttpRequest would): the answer stays the
// ArrayBuffer or Blob it is, with the element methods as its own properties, as Restangular
// 1.6.1 left it (it extended the object; it never changed its prototype).
import { describe, it, expect } from 'vitest';
import { ng, settle } from './helpers/ng';

describe('binary answers through $http', () => {
  it('an ArrayBuffer answer is still an ArrayBuffer, with get() and getClientUrl()', () => {
    const t = ng();
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff]).buffer;
    t.$httpBackend.expectGET('/files/1').respond(200, bytes);
    const r = settle(t, t.Client.one('files', 1).withHttpConfig({ responseType: 'arraybuffer' }).get()).value;
    expect(r).toBeInstanceOf(ArrayBuffer);
    expect(Array.from(new Uint8Array(r))).toEqual([0x89, 0x50, 0x4e, 0x47, 0xff]);
    expect(r.getClientUrl()).toBe('/files');
    expect(Object.keys(r)).toEqual([]);
  });

  it('a Blob answer is still a Blob of its type', () => {
    const t = ng();
    t.$httpBackend.expectGET('/files/2/raw').respond(200, new Blob(['hi'], { type: 'text/plain' }));
    const r = settle(t, t.Client.one('files', 2).withHttpConfig({ responseType: 'blob' }).customGET('raw')).value;
    expect(r).toBeInstanceOf(Blob);
    expect([r.size, r.type]).toEqual([2, 'text/plain']);
  });

  it('plain objects and arrays still share the library prototype (no own methods)', () => {
    const t = ng();
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1 });
    const r = settle(t, t.Client.one('users', 1).get()).value;
    expect(Object.prototype.hasOwnProperty.call(r, 'get')).toBe(false);
    expect(typeof r.get).toBe('function');
  });
});
