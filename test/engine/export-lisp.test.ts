// `sheet export` and `:=` Lisp variables (issue 25/26 leftovers): with Emacs on PATH the form
// is evaluated by one real `emacs --batch` (sheet-command/lisp-batch.ts, as `sheet run`
// does); without Emacs, or with --untrusted, the error names the variable's line and the
// ways out (--var, Emacs on PATH, C-c C-S-u in Emacs), exit 2, nothing on stdout.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSheet, tempDir } from './helpers.js';

const dir = tempDir('export-lisp-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// Line 3 is the := variable; it reads :base (declared above it) with sheet-get-var.
const SHEET = `:base = http://127.0.0.1:9
# the user, computed
:who := (concat (upcase "gr") "ace" (substring (sheet-get-var ":base") 0 0))
:path := (format "%s/users/%d" (sheet-get-var ":base") (+ 40 2))
GET :path?who=:who
X-Who: :who
`;

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('sheet export with := Lisp variables', () => {
  it('evaluates the forms in a batch Emacs when emacs is on PATH', async () => {
    const file = write('lisp.sheet', SHEET);
    const r = await runSheet(['export', '--to', 'curl', `${file}:5`], { cwd: dir });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe("curl -X GET -H 'X-Who: GRace' 'http://127.0.0.1:9/users/42?who=GRace'\n");
    // --var still wins over the form, as a hook's value would.
    const given = await runSheet(['export', '--to', 'curl', '--var', ':who=Ada', `${file}:5`], { cwd: dir });
    expect(given.out).toContain("X-Who: Ada'");
  });

  it('without Emacs: exit 2, the line of the variable and what to do', async () => {
    const file = write('nolisp.sheet', SHEET);
    const r = await runSheet(['export', '--to', 'python', `${file}:5`], { cwd: dir, env: { EMACS: path.join(dir, 'no-such-emacs') } });
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toContain(`sheet export: ${file}:3: :who is a Lisp (:=) variable: its form needs Emacs, and no emacs is on PATH`);
    expect(r.err).toContain('--var :who=VALUE');
    expect(r.err).toContain('C-c C-S-u, M-x sheet-copy-as-code');
  });

  it('--untrusted evaluates nothing and says so', async () => {
    const file = write('untrusted.sheet', SHEET);
    const r = await runSheet(['export', '--untrusted', '--to', 'curl', `${file}:5`], { cwd: dir });
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toMatch(/untrusted\.sheet:3: :who is a Lisp \(:=\) variable: .*--untrusted evaluates nothing/);
    expect(r.err).toContain('or drop --untrusted');
  });

  it('a form that signals: exit 2, its line and Emacs’s message', async () => {
    const file = write('boom.sheet', '# first\n:who := (error "no user today")\nGET http://127.0.0.1:9/:who\n');
    const r = await runSheet(['export', '--to', 'curl', `${file}:3`], { cwd: dir });
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toContain(`${file}:2: `);
    expect(r.err).toContain('no user today');
  });
});
