// The public declarations type-check typical Restangular-style code (types/usage.ts), and the
// declarations of the build (tsc --emitDeclarationOnly), as published, type-check typed code (types/typed.ts).
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

describe('type declarations', () => {
  it('usage.ts compiles against the public surface under strict mode', () => {
    const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types/tsconfig.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('typed.ts (generics, misspelt fields rejected) compiles under --strict against the published dist/types', () => {
    const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types/tsconfig.typed.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  for (const resolution of ['node16', 'nodenext', 'bundler']) {
    it(`results.mts under ${resolution}: get<User>() is a Promise<User>, responseType 'blob' answers a Blob, Node options through the main entry (bundler: customConditions ["node"])`, () => {
      const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, `types/tsconfig.results-${resolution}.json`)], { encoding: 'utf8' });
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    }, 60000);
  }

  it('with-angular.ts: promises pass as AngularJS promises ($q.all, then/catch/finally, angular.IPromise) under --strict with @types/angular', () => {
    const r = spawnSync(process.execPath, [tsc, '-p', path.join(__dirname, 'types/tsconfig.angular.json')], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);
});
