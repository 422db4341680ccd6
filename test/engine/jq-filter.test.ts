// The jq filter sheet-mode's Org Babel `:jq` / `:jq-args` runs on a body (hooks/jq-filter.ts),
// compared with the system jq run beside it on the same input: the output must be what
// `jq ARGS FILTER` prints. Options the engine cannot pass on are errors naming them.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { filterBody } from '../../engine/src/hooks/jq-filter.js';

const execFileP = promisify(execFile);
const USERS = '[{"id":1,"name":"Ada","tags":["a","b"]},{"id":2,"name":"Alan \\"T\\"","tags":[]}]';

/** What the system jq prints for `args filter` on `input`, without the final newline. */
async function realJq(args: string[], filter: string, input: string): Promise<string> {
  const child = execFileP('jq', [...args, filter]);
  child.child.stdin!.end(input);
  return (await child).stdout.replace(/\n$/, '');
}

describe('filterBody prints what jq prints', () => {
  const cases: Array<[string, string[]]> = [
    ['.[0]', []],
    ['.[].name', []],
    ['.[].name', ['-r']],
    ['.[0]', ['-r']],
    ['map(.id)', ['-c']],
    ['.[] | select(.id == ($want | tonumber)) | .name', ['--arg', 'want', '2']],
    ['.[] | select(.id == $want) | .tags', ['--argjson', 'want', '1']],
    ['.[] | select(.name == $n) | .id', ['--arg', 'n', 'Alan "T"', '-r']],
    ['length', ['--args']],
  ];
  for (const [filter, args] of cases) {
    it(`jq ${args.join(' ')} '${filter}'`, async () => {
      const got = await filterBody({ filter, args }, USERS);
      expect(got).toEqual({ output: await realJq(args, filter, USERS) });
    });
  }
});

describe('filterBody errors', () => {
  const cases: Array<[string, string[], string, RegExp]> = [
    ['.', ['--tab'], USERS, /jq option --tab is not supported here/],
    ['.', ['--arg', 'x'], USERS, /--arg needs a NAME and a VALUE/],
    ['.', ['--argjson', 'x', '{nope'], USERS, /--argjson x: "\{nope" is not JSON/],
    ['.[', [], USERS, /^jq \.\[: /],
    ['.', [], '', /empty, not JSON/],
    ['.a', [], 'not json', /^jq \.a: /],
  ];
  for (const [filter, args, input, message] of cases) {
    it(`${filter} ${args.join(' ')} on ${JSON.stringify(input.slice(0, 10))}`, async () => {
      const got = await filterBody({ filter, args }, input);
      expect('error' in got && got.error).toMatch(message);
    });
  }
});
