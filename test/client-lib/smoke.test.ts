import { describe, it, expect } from 'vitest';
import { ng, settle, ngVersion } from './helpers/ng';

describe('smoke ' , () => {
  it('GET one on ' + ngVersion, () => {
    const t = ng();
    t.$httpBackend.expectGET('/accounts/1').respond(200, { id: 1, name: 'a' });
    const r = settle(t, t.Client.one('accounts', 1).get());
    expect(r.value.name).toBe('a');
    expect(JSON.stringify(r.value)).toBe('{"id":1,"name":"a"}');
  });
});
