// Hooks, table-driven: jq-set-var through node-jq and the system jq (raw output as jq -r,
// errors, and a jq that runs for ever is stopped and killed), run-hook forms, unknown hooks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { JQ_MAX_OUTPUT, runHooks, runJq } from '../../engine/src/hooks/run.js';
import { splitRetry } from '../../engine/src/hooks/expect.js';

const execFileP = promisify(execFile);
const USERS = '[{"id":1,"name":"Ada","tags":["a","b"]},{"id":2,"name":"Alan \\"T\\"","tags":[]}]';

/** Whether a process whose command line contains `marker` is running. */
async function running(marker: string): Promise<boolean> {
  const { stdout } = await execFileP('ps', ['-eo', 'args']);
  return stdout.split('\n').some((l) => l.includes(marker) && !l.includes('ps -eo'));
}

/** Whether no process with `marker` is left within `ms` (a killed jq may take a moment to go). */
async function goneWithin(marker: string, ms = 5000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    if (!(await running(marker))) return true;
  }
  return !(await running(marker));
}

describe('runJq', () => {
  it.each([
    ['a string, without quotes', '.[0].name', 'Ada'],
    ['a string with quotes', '.[1].name', 'Alan "T"'],
    ['a number', '.[1].id', '2'],
    ['several outputs, one a line', '.[].id', '1\n2'],
    ['an array, compact', '.[0].tags', '["a","b"]'],
    ['null', '.[0].missing', 'null'],
    ['a boolean', 'length == 2', 'true'],
  ])('%s', async (_, filter, out) => {
    expect(await runJq(filter, USERS)).toBe(out);
  });

  it.each([
    ['a syntax error', '.[', /syntax error/],
    ['input that is not JSON', '.', /parse error|Invalid/i],
    ['an empty body', '.', /empty/],
  ])('%s fails with jq\'s message', async (what, filter, message) => {
    const input = what === 'input that is not JSON' ? 'plain text' : what === 'an empty body' ? '  ' : USERS;
    await expect(runJq(filter, input)).rejects.toThrow(message);
  });

  it('a syntax error carries jq\'s message even when jq exits before reading a large input (EPIPE)', async () => {
    const big = JSON.stringify(Array.from({ length: 200000 }, (_, i) => ({ i })));
    for (let k = 0; k < 10; k++) await expect(runJq('.[', big)).rejects.toThrow(/syntax error/);
  });

  it('a jq that loops without output is stopped at the timeout and killed', async () => {
    const marker = `loop-marker-${process.pid}`;
    const t = Date.now();
    await expect(runJq(`def f: f; "${marker}" as $m | f`, USERS, 500)).rejects.toThrow(/did not finish within 500 ms/);
    expect(Date.now() - t).toBeLessThan(3000);
    expect(await goneWithin(marker)).toBe(true);
  });

  it('a jq that prints for ever is stopped at the output limit and killed', async () => {
    const marker = `repeat-marker-${process.pid}`;
    await expect(runJq(`repeat("${marker}")`, USERS, 15000)).rejects.toThrow(new RegExp(`more than ${JQ_MAX_OUTPUT} bytes|did not finish`));
    expect(await goneWithin(marker)).toBe(true);
  });
});

describe('runHooks', () => {
  it('runs the hooks in sheet order: sets overrides, hands back forms, warns', async () => {
    const set: [string, string][] = [];
    const r = await runHooks(
      [
        { name: 'jq-set-var', args: ':id .[0].id', line: 2, endLine: 2 },
        { name: 'run-hook', args: '(message "x")', line: 3, endLine: 3 },
        { name: 'jq-set-var', args: ':bad .[', line: 4, endLine: 4 },
        { name: 'no-such-hook', args: '', line: 5, endLine: 5 },
        { name: 'jq-set-var', args: ':names [.[].name] | join(", ")', line: 6, endLine: 6 },
      ],
      USERS,
      (n, v) => set.push([n, v]),
    );
    expect(set).toEqual([[':id', '1'], [':names', 'Ada, Alan "T"']]);
    expect(r.setVars).toEqual([{ name: ':id', value: '1' }, { name: ':names', value: 'Ada, Alan "T"' }]);
    expect(r.runHooks).toEqual(['(message "x")']);
    expect(r.warnings.map((w) => [w.line, w.code])).toEqual([[4, 'jq-error'], [5, 'unknown-hook']]);
    expect(r.warnings[0]!.message).toContain('".["');
    expect(r.warnings[1]!.message).toContain('no-such-hook');
  });
});

describe('runHooks: assertion hooks (hooks/expect.ts)', () => {
  const response = { status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']] as [string, string][], durationMs: 12 };
  it('returns each assertion with its line, in sheet order, beside the other hooks', async () => {
    const r = await runHooks(
      [
        { name: 'expect-status', args: '2xx', line: 2, endLine: 2 },
        { name: 'jq-set-var', args: ':id .[0].id', line: 3, endLine: 3 },
        { name: 'expect-jq', args: "'length == 3'", line: 4, endLine: 4 },
        { name: 'expect-header', args: 'content-type JSON', line: 5, endLine: 5 },
      ],
      USERS,
      () => undefined,
      response,
    );
    expect(r.setVars).toEqual([{ name: ':id', value: '1' }]);
    expect(r.assertions.map((a) => [a.line, a.name, a.passed])).toEqual([[2, 'expect-status', true], [4, 'expect-jq', false], [5, 'expect-header', false]]);
    expect(r.assertions[1]!.message).toBe(`line 4: expect-jq 'length == 3': failed, got "false" on body ${USERS}`);
    expect(r.assertions[2]!.message).toBe('line 5: expect-header content-type JSON: failed, got content-type: application/json');
  });

  it('an assertion marked retry (its last word) is checked without the mark and reported as written', async () => {
    const r = await runHooks(
      [
        { name: 'expect-status', args: '2xx retry', line: 2, endLine: 2 },
        { name: 'expect-body', args: '"Ada"  retry', line: 3, endLine: 3 },
        { name: 'expect-header', args: 'Content-Type xml retry', line: 4, endLine: 4 },
        { name: 'expect-body', args: 'retr[y]', line: 5, endLine: 5 },
      ],
      USERS,
      () => undefined,
      response,
    );
    expect(r.assertions.map((a) => [a.args, a.passed])).toEqual([
      ['2xx retry', true],
      ['"Ada"  retry', true],
      ['Content-Type xml retry', false],
      ['retr[y]', false],
    ]);
    expect(r.assertions[2]!.message).toBe('line 4: expect-header Content-Type xml retry: failed, got Content-Type: application/json');
    expect(splitRetry('200 retry')).toEqual({ args: '200', retry: true });
    expect(splitRetry('retry')).toEqual({ args: '', retry: true });
    expect(splitRetry('no-retry')).toEqual({ args: 'no-retry', retry: false });
    expect(splitRetry('.retry')).toEqual({ args: '.retry', retry: false });
  });

  it('without a response (no exchange), assertion hooks are unknown-hook warnings, never thrown', async () => {
    const r = await runHooks([{ name: 'expect-status', args: '200', line: 7, endLine: 7 }], USERS, () => undefined);
    expect(r.assertions).toEqual([]);
    expect(r.warnings.map((w) => w.code)).toEqual(['unknown-hook']);
  });
});

describe('runJq on a long-lived jq per filter (hooks/jq-server.ts)', () => {
  it('answers as jq -r -c would, input after input, whatever came before', async () => {
    for (let i = 0; i < 5; i++) {
      expect(await runJq('.[] | .name # a comment', USERS)).toBe('Ada\nAlan "T"');
      expect(await runJq('.[0]', USERS)).toBe('{"id":1,"name":"Ada","tags":["a","b"]}');
      expect(await runJq('.x', `{"x": ${i}}`)).toBe(String(i));
    }
  });

  it('a run-time error is the error of that input only; the next input is answered', async () => {
    await expect(runJq('.[0].name | tonumber', USERS)).rejects.toThrow(/jq: error.*(Invalid numeric literal|Cannot parse|cannot be parsed)/);
    expect(await runJq('.[0].name | tonumber? // "n/a"', USERS)).toBe('n/a');
    await expect(runJq('.[0].name | tonumber', USERS)).rejects.toThrow(/jq: error.*(Invalid numeric literal|Cannot parse|cannot be parsed)/);
    expect(await runJq('.[0].name | ascii_downcase', USERS)).toBe('ada');
  });

  it('bodies that are not one JSON text, and filters reading inputs, run jq once as before', async () => {
    expect(await runJq('.a', '{"a": 1} {"a": 2}')).toBe('1\n2');
    expect(await runJq('[., inputs] | length', '1 2 3')).toBe('3');
  });
});
