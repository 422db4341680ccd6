// `sheet run`: a malformed assertion is a sheet error of its file before anything of the file is
// sent (issue 26 item 5; engine/src/hooks/expect.ts checkExpect, sheet-command/runner.ts preflight): exit 2,
// `file:line: message`. The fault server counts what arrives per path, so "nothing was sent"
// is checked at the server; a well-formed file beside it still runs.
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
  dir = tempDir('assert-form-');
});
afterAll(async () => {
  await faults.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Requests `p` of the fault server got so far. */
const hits = (p: string): Promise<number> => hitCount(faults.url, p);

describe('sheet run: a malformed assertion', () => {
  const cases: [what: string, hook: string, message: string][] = [
    ['expect-status with no argument', 'expect-status', 'expect-status: the argument must be a status code (200) or class (2xx)'],
    ['expect-status with a word', 'expect-status ok', 'expect-status ok: the argument must be a status code (200) or class (2xx)'],
    ['an unknown expect-*', 'expect-stauts 200', 'unknown assertion expect-stauts (known: expect-status, expect-header, expect-jq, expect-body, expect-time, expect-events, expect-event, expect-grpc-status)'],
    ['an expect-body regexp that does not compile', 'expect-body [', 'expect-body [: Invalid regular expression'],
    ['an expect-header regexp that does not compile', 'expect-header Content-Type (json', 'expect-header Content-Type (json: Invalid regular expression'],
    ['expect-time without a number', 'expect-time < soon', 'expect-time < soon: the argument must be a comparison in ms'],
    ['expect-jq with no expression', 'expect-jq', 'expect-jq: the argument must be a jq expression'],
  ];
  cases.forEach(([what, hook, message], i) => {
    it(`${what}: exit 2, file:line, nothing sent`, async () => {
      const p = `/form-${i}`;
      const f = path.join(dir, `bad${i}.sheet`);
      // The bad assertion is on the second request: the first is not sent either.
      fs.writeFileSync(f, `GET ${faults.url}${p}-first\n-> expect-status 200\n#\nGET ${faults.url}${p}\n-> ${hook}\n`);
      const r = await runSheet(['run', f], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.out).toContain(`bad${i}.sheet:5: ${message}`);
      expect(await hits(`${p}-first`)).toBe(0);
      expect(await hits(p)).toBe(0);
    });
  });

  it('the other files still run; the JSON report holds the error with its line', async () => {
    const bad = path.join(dir, 'x-bad.sheet');
    const good = path.join(dir, 'y-good.sheet');
    fs.writeFileSync(bad, `GET ${faults.url}/form-x\n-> expect-status\n`);
    fs.writeFileSync(good, `GET ${faults.url}/form-y\n-> expect-status 200\n-> expect-body ok\n`);
    const r = await runSheet(['run', bad, good, '--report', 'json:r.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(await hits('/form-x')).toBe(0);
    expect(await hits('/form-y')).toBe(1);
    const rep = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    expect(rep.files[0].error).toMatchObject({ code: 'bad-argument', line: 2 });
    expect(rep.summary.assertions).toEqual({ passed: 2, failed: 0 });
  });
});
