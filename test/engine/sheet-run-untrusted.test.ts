// `sheet run --untrusted` (engine/src/sheet-command/untrusted.ts, docs/sheet-run.md "Untrusted files"): a
// file that carries code (a := Lisp variable, a run-hook form, a .http response handler inline
// or in a file) stops before anything of it is sent, with exit 2 and a message naming the line;
// a file of plain requests, jq-set-var and assertions runs as usual. The fault server counts
// what arrives per path, so "nothing was sent" is checked at the server.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { hitCount, startFaults } from '../fixtures/faults.mjs';

let faults: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  faults = await startFaults();
  dir = tempDir('untrusted-');
  fs.writeFileSync(path.join(dir, 'h.js'), 'client.global.set("x", "1");\n');
});
afterAll(async () => {
  await faults.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Requests `p` of the fault server got so far. */
const hits = (p: string): Promise<number> => hitCount(faults.url, p);

describe('sheet run --untrusted', () => {
  const cases: [name: string, file: string, text: (u: string) => string, line: number, what: string][] = [
    ['a := Lisp variable', 'a.sheet', (u) => `GET ${u}/u-lisp-before\n#\n:tok := (concat "a" "b")\nGET ${u}/u-lisp\nX-T: :tok\n`, 3, 'the Lisp variable :tok'],
    ['a run-hook form', 'b.sheet', (u) => `GET ${u}/u-hook\n-> run-hook (message "hi")\n`, 2, 'the run-hook form'],
    ['an inline .http handler', 'c.http', (u) => `GET ${u}/u-handler\n\n> {%\n  client.global.set("x", "1");\n%}\n`, 3, 'the response handler'],
    ['a .http handler file', 'd.http', (u) => `GET ${u}/u-handler-file\n\n> ./h.js\n`, 3, 'the response handler'],
    ['a .http pre-request script', 'f.http', (u) => `< {%\n  request.variables.set("x", "1");\n%}\nGET ${u}/u-pre\n`, 1, 'the pre-request script'],
  ];
  for (const [name, file, text, line, what] of cases) {
    it(`${name}: exit 2, the line named, nothing of the file sent`, async () => {
      const body = text(faults.url);
      fs.writeFileSync(path.join(dir, file), body);
      const paths = [...body.matchAll(/\/u-[a-z-]+/g)].map((m) => m[0]);
      const before = await Promise.all(paths.map(hits));
      const r = await runSheet(['run', '--untrusted', file], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.out).toContain(`${file}:${line}: ${what}`);
      expect(r.out).toContain('--untrusted runs none');
      expect(await Promise.all(paths.map(hits))).toEqual(before);
      // Without the flag the same file is sent (the code runs, or the run stops on Emacs).
      if (file.endsWith('.http')) {
        const trusted = await runSheet(['run', file], { cwd: dir });
        expect(trusted.code).toBe(0);
        expect(await hits(paths[0]!)).toBe(before[0]! + 1);
      }
    });
  }

  it('plain requests, jq-set-var and assertions run as usual', async () => {
    fs.writeFileSync(path.join(dir, 'e.sheet'), `GET ${faults.url}/hits\n-> jq-set-var :n .["/hits"]\n-> expect-status 200\n#\nGET ${faults.url}/u-plain?n=:n\n-> expect-status 200\n`);
    const before = await hits('/u-plain');
    const r = await runSheet(['run', '--untrusted', 'e.sheet'], { cwd: dir });
    expect(r.code, r.out + r.err).toBe(0);
    expect(await hits('/u-plain')).toBe(before + 1);
  });
});
