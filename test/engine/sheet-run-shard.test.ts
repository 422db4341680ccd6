// `sheet run --shard I/N` and `sheet report merge` (issue 26 item 3; sheet-command/shard.ts, sheet-command/merge.ts):
// the shards of a file list are a partition, decided by the sorted relative paths (round-robin),
// the same whatever the order or the form (relative, absolute) of the paths given; the JSON
// reports of the shards merge into one run in any format, with sheet run's exit status.
// The real `sheet` command against the fault server on 127.0.0.1, which counts what it got.
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';

let faults: { url: string; close(): Promise<void> };
let dir: string;
const NAMES = ['sub/e.sheet', 'b.sheet', 'a.sheet', 'sub/d.sheet', 'c.sheet'];

beforeAll(async () => {
  faults = await startFaults();
  dir = tempDir('shard-');
  fs.mkdirSync(path.join(dir, 'sub'));
  for (const n of NAMES) {
    const tag = n.replace(/\W/g, '-');
    // c.sheet fails an assertion.
    fs.writeFileSync(path.join(dir, n), `GET ${faults.url}/shard-${tag}\n-> expect-status ${n === 'c.sheet' ? 201 : 200}\n`);
  }
});
afterAll(async () => {
  await faults.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ran = (out: string) => [...out.matchAll(/\((\S+\.sheet):1\)/g)].map((m) => m[1]).sort();

describe('sheet run --shard I/N', () => {
  it('deals the sorted relative paths round-robin: a partition, whatever the order or form given', async () => {
    const one = await runSheet(['run', ...NAMES, '--shard', '1/2'], { cwd: dir });
    const two = await runSheet(['run', ...NAMES.map((n) => path.join(dir, n)).reverse(), '--shard', '2/2'], { cwd: dir });
    // sorted: a.sheet b.sheet c.sheet sub/d.sheet sub/e.sheet
    expect(ran(one.out)).toEqual(['a.sheet', 'c.sheet', 'e.sheet']);
    expect(ran(two.out)).toEqual(['b.sheet', 'd.sheet']);
    expect(one.code).toBe(1); // c.sheet's failed assertion
    expect(two.code).toBe(0);
    expect(one.out).toMatch(/3 of 3 requests/);
    const three = await runSheet(['run', ...NAMES, '--shard', '3/3'], { cwd: dir });
    expect(ran(three.out)).toEqual(['c.sheet']);
  });

  it('a shard with no files runs nothing and says so (exit 0)', async () => {
    const r = await runSheet(['run', 'a.sheet', '--shard', '2/2'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.err).toContain('shard 2/2 holds none of the 1 files given');
  });

  it.each(['0/2', '3/2', '1', 'a/b', '1/0'])('--shard %s is a usage error', async (s) => {
    const r = await runSheet(['run', 'a.sheet', '--shard', s], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--shard ${s}: use I/N`);
  });
});

describe('sheet report merge', () => {
  it('merges the shards JSON reports into one run: JSON, JUnit, HTML; exit status of the whole', async () => {
    await runSheet(['run', ...NAMES, '--shard', '1/2', '--report', 'json:s1.json'], { cwd: dir });
    await runSheet(['run', ...NAMES, '--shard', '2/2', '--report', 'json:s2.json'], { cwd: dir });
    const r = await runSheet(['report', 'merge', 's1.json', 's2.json', '--report', 'json:all.json', '--report', 'junit:all.xml', '--report', 'html:all.html'], { cwd: dir });
    expect(r.err).toContain('2 reports merged: 5 requests, 1 failed assertions');
    expect(r.code).toBe(1);
    const all = JSON.parse(fs.readFileSync(path.join(dir, 'all.json'), 'utf8'));
    expect(all.summary).toMatchObject({ files: 5, requests: 5, selected: 5, passed: 4, failed: 1, assertions: { passed: 4, failed: 1 } });
    expect(all.files.map((f: { file: string }) => path.basename(f.file))).toEqual(['e.sheet', 'a.sheet', 'c.sheet', 'b.sheet', 'd.sheet']); // each shard's files in the order given
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(fs.readFileSync(path.join(dir, 'all.xml'), 'utf8'));
    expect(xml.testsuites).toMatchObject({ tests: '5', failures: '1' });
    expect(fs.readFileSync(path.join(dir, 'all.html'), 'utf8')).toContain('<span data-count="requests"><span class="n ">5</span>');
  });

  it('usage errors: not a report, no --report, no inputs (exit 2)', async () => {
    fs.writeFileSync(path.join(dir, 'x.json'), '{"a": 1}');
    expect((await runSheet(['report', 'merge', 'x.json', '--report', 'json:o.json'], { cwd: dir })).err).toContain('x.json is not a JSON report of sheet run');
    expect((await runSheet(['report', 'merge', 'x.json'], { cwd: dir })).code).toBe(2);
    expect((await runSheet(['report', 'merge', '--report', 'json:o.json'], { cwd: dir })).code).toBe(2);
    expect((await runSheet(['report', 'merge', 'nope.json', '--report', 'json:o.json'], { cwd: dir })).err).toContain('cannot read nope.json');
  });
});
