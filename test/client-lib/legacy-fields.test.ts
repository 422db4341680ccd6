// Restangular's lowercase fields after the rename (issue 38 item 7): `restangularEtag`,
// `restangularized`, `restangularCollection` read undefined, as the migration table says, and in
// development warn once, naming the new field, instead of failing silently.
import { describe, it, expect, vi, afterEach } from 'vitest';
import { ng, settle } from './helpers/ng';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe("Restangular's field names on elements", () => {
  it('reading one warns once per name, naming the new field, and gives undefined', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const t = ng();
    t.$httpBackend.expectGET('/users/1').respond(200, { id: 1 }, { ETag: '"v1"' });
    const u = settle(t, t.Client.one('users', 1).get()).value;
    expect(u.clientEtag).toBe('"v1"');
    expect([u.restangularEtag, u.restangularEtag, u.restangularized, t.Client.all('users').restangularCollection]).toEqual([undefined, undefined, undefined, undefined]);
    expect(warn.mock.calls.map((c) => c[0])).toEqual([
      "angular-client-rest: 'restangularEtag' is Restangular's name and reads undefined here; use 'clientEtag' (README, \"Migrating from Restangular 1.6\")",
      "angular-client-rest: 'restangularized' is Restangular's name and reads undefined here; use 'clientized' (README, \"Migrating from Restangular 1.6\")",
      "angular-client-rest: 'restangularCollection' is Restangular's name and reads undefined here; use 'clientCollection' (README, \"Migrating from Restangular 1.6\")",
    ]);
  });

  it('no warning in production (NODE_ENV=production) nor for a name kept with setClientFields, assignment stores data as before; the warning comes back in development', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('NODE_ENV', 'production');
    const t = ng();
    const u = t.Client.one('users', 1);
    expect(u.restangularEtag).toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
    vi.unstubAllEnvs();
    const kept = ng((p) => p.setClientFields({ etag: 'restangularEtag' }));
    kept.$httpBackend.expectGET('/users/1').respond(200, { id: 1 }, { ETag: '"v2"' });
    expect(settle(kept, kept.Client.one('users', 1).get()).value.restangularEtag).toBe('"v2"');
    const v = t.Client.one('users', 2);
    v.restangularized = 'mine';
    expect([v.restangularized, JSON.parse(JSON.stringify(v)).restangularized]).toEqual(['mine', 'mine']);
    expect(warn).not.toHaveBeenCalled();
    // Back in development, the same service warns on the first read (production reads did not count).
    expect(t.Client.one('users', 3).restangularEtag).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
