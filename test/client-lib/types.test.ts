// The public declarations type-check typical Restangular-style code (types/usage.ts), and the
// declarations of the build (tsc --emitDeclarationOnly), as published, type-check typed code (types/typed.ts).
// Each `tsc -p` runs once per vitest run, not once per AngularJS project (helpers/once-per-run.ts).
import { describe, it, expect } from 'vitest';
import path from 'node:path';
import { sharedCommands } from './helpers/once-per-run';

const root = path.resolve(__dirname, '../..');
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
const resolutions = ['node16', 'nodenext', 'bundler'];
const configs = ['tsconfig', 'tsconfig.typed', ...resolutions.map((r) => `tsconfig.results-${r}`), 'tsconfig.angular'];
const result = sharedCommands(
  configs.map((c) => ({ key: `types-${c}`, argv: [process.execPath, tsc, '-p', path.join(__dirname, `types/${c}.json`)], cwd: root })),
);

describe('type declarations', () => {
  it('usage.ts compiles against the public surface under strict mode', async () => {
    const r = await result('types-tsconfig');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  it('typed.ts (generics, misspelt fields rejected) compiles under --strict against the published dist/types', async () => {
    const r = await result('types-tsconfig.typed');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);

  for (const resolution of resolutions) {
    it(`results.mts under ${resolution}: get<User>() is a Promise<User>, responseType 'blob' answers a Blob, Node options through the main entry (bundler: customConditions ["node"])`, async () => {
      const r = await result(`types-tsconfig.results-${resolution}`);
      expect(r.stdout + r.stderr).toBe('');
      expect(r.status).toBe(0);
    }, 60000);
  }

  it('with-angular.ts: promises pass as AngularJS promises ($q.all, then/catch/finally, angular.IPromise) under --strict with @types/angular', async () => {
    const r = await result('types-tsconfig.angular');
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  }, 60000);
});
