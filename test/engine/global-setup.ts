// Builds engine/dist/engine.cjs once before the engine tests, with esbuild's JS API and the same
// options as the Makefile's build-engine recipe, so `npx vitest run` works without `make build`.
// The bundle is written to a temporary file and renamed, so a process starting the engine at
// that moment never reads half a file.
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(new URL('../..', import.meta.url).pathname);
export const ENGINE_BUNDLE = path.join(root, 'engine/dist/engine.cjs');
/** The Makefile's WS_NATIVE: ws's optional native add-ons as a module that fails to load (engine/src/ws/optional-native.cjs). */
export const WS_NATIVE_ALIAS = { bufferutil: './engine/src/ws/optional-native.cjs', 'utf-8-validate': './engine/src/ws/optional-native.cjs' };

export default async function setup(): Promise<void> {
  const tmp = `${ENGINE_BUNDLE}.${process.pid}.tmp`;
  fs.mkdirSync(path.dirname(ENGINE_BUNDLE), { recursive: true });
  await build({
    absWorkingDir: root,
    entryPoints: ['engine/src/main.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: tmp,
    logLevel: 'warning',
    legalComments: 'none',
    alias: WS_NATIVE_ALIAS,
  });
  fs.renameSync(tmp, ENGINE_BUNDLE);
}
