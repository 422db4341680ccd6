/** The bundle entry of engine/bin/sheet (engine/dist/sheet.cjs): `sheet` with the process's argv and stdio. */
import { main } from './cli.js';
import { readAll } from './import-curl-cli.js';

main(process.argv.slice(2), {
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
  isTTY: !!process.stdout.isTTY,
  env: process.env,
  stdin: () => readAll(process.stdin),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`sheet: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 2;
  },
);
