/**
 * The version of the engine, the `sheet` command, the shell verbs' CLI and daemon, and the
 * JSON-RPC server (`initialize` answers it). Its one home is engine/package.json's `version`:
 * esbuild bundles the field into dist/, so a release changes that one line (the Elisp
 * `Version:` headers and the other package.json files are checked against it by
 * test/engine/version.test.ts).
 */
import pkg from '../package.json' with { type: 'json' };

/** e.g. `0.1.0` (semver, from engine/package.json). */
export const VERSION: string = pkg.version;
