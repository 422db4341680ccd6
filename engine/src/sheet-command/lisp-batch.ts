/**
 * One `emacs --batch` per `sheet run`, evaluating the sheet's Lisp: `:=` variables and
 * `-> run-hook` forms (elisp/sheet-batch.el has the line protocol). Started on first use;
 * without Emacs on PATH, {@link findEmacs} says so before the first request.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { EngineError } from '../errors.js';
import type { EvalLisp } from '../resolve/types.js';
import { which } from '../which.js';

/** The Emacs program: `$EMACS` when set, else `emacs` found on PATH; undefined when absent. */
export function findEmacs(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return which(env.EMACS || 'emacs', env.PATH ?? '');
}

/**
 * The elisp/ folder holding sheet-batch.el: `$SHEET_ELISP_DIR`, else next to the engine
 * (a checkout: engine/dist/../../elisp or engine/bin/../../elisp; the npm package:
 * <package>/elisp, where `npm pack` copies sheet-batch.el). A checkout's own folder comes first:
 * engine/elisp exists in a checkout only while `npm pack` copies it in and removes it again, and a
 * run that loaded it then read half-copied or vanishing files (issue 43: test files side by side).
 */
export function elispDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // In the bundle, __dirname is engine/dist; the launcher engine/bin/sheet is argv[1].
  const bases = [typeof __dirname === 'string' ? __dirname : undefined, process.argv[1] && path.dirname(fs.realpathSync(process.argv[1]))];
  const candidates = [env.SHEET_ELISP_DIR, ...bases.filter((b): b is string => !!b).map((b) => [path.resolve(b, '../../elisp'), path.resolve(b, '../elisp')]).flat()];
  return candidates.find((d) => d && fs.existsSync(path.join(d, 'sheet-batch.el')));
}

/**
 * The batch Emacs of a `sheet run` or a `sheet export`: Emacs found ({@link findEmacs}) and
 * sheet-batch.el found ({@link elispDir}); undefined when either is missing, and with
 * `untrusted` (`--untrusted`: nothing a file carries is evaluated). Not started until the
 * first form; the caller ends it with {@link BatchEmacs.close}.
 */
export function batchEmacsFor(env: NodeJS.ProcessEnv, untrusted = false): BatchEmacs | undefined {
  const emacs = findEmacs(env);
  const dir = elispDir(env);
  return emacs && dir && !untrusted ? new BatchEmacs(emacs, dir) : undefined;
}

/**
 * `:=` forms evaluated by `lisp` (the `evalLisp` of a {@link Session}): the form's value as a
 * string; `sheet-get-var` in the form reads the variables declared above it, as in Emacs
 * (`lisp/eval`'s `vars`, docs/protocol.md).
 * @throws Error with Emacs's message when the form signals.
 */
export function batchEvalLisp(lisp: BatchEmacs): EvalLisp {
  return async (form, decl) => (await lisp.eval(form, undefined, new Map(Object.entries(decl.vars ?? {})))).value;
}

/** What a form returned: its value as a string and the variables `sheet-set-var` set. */
export interface BatchValue {
  value: string;
  setVars: [string, string][];
}

/** A running `emacs --batch -l sheet-batch -f sheet-batch-loop`. */
export class BatchEmacs {
  private proc: ChildProcess | undefined;
  private next = 1;
  private pending = new Map<number, { resolve: (v: BatchValue) => void; reject: (e: Error) => void }>();
  private stderr = '';

  constructor(private emacs: string, private dir: string) {}

  private start(): ChildProcess {
    if (this.proc) return this.proc;
    const proc = spawn(this.emacs, ['--batch', '-Q', '-L', this.dir, '-l', 'sheet-batch', '-f', 'sheet-batch-loop'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => (this.stderr = (this.stderr + d).slice(-4000)));
    readline.createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (!line.startsWith('SHEET-BATCH ')) return;
      const a = JSON.parse(line.slice(12)) as { id: number; ok: boolean; value?: string; error?: string; setVars?: [string, string][] };
      const p = this.pending.get(a.id);
      if (!p) return;
      this.pending.delete(a.id);
      if (a.ok) p.resolve({ value: a.value ?? '', setVars: a.setVars ?? [] });
      else p.reject(new Error(a.error ?? 'error'));
    });
    const fail = (why: string) => {
      for (const p of this.pending.values()) p.reject(new Error(`${why}${this.stderr.trim() ? ': ' + this.stderr.trim().split('\n').pop() : ''}`));
      this.pending.clear();
      this.proc = undefined;
    };
    proc.on('error', (e) => fail(`cannot start ${this.emacs}: ${e.message}`));
    proc.on('exit', (code) => fail(`batch Emacs exited (status ${code})`));
    proc.stdin!.on('error', () => undefined);
    this.proc = proc;
    return proc;
  }

  /**
   * Evaluate `form`; with `body`, in a buffer holding the response body (a run-hook).
   * @param vars the run's variables, readable with `sheet-get-var`.
   * @throws Error with Emacs's error message.
   */
  eval(form: string, body?: string, vars?: Map<string, string>): Promise<BatchValue> {
    const proc = this.start();
    const id = this.next++;
    // Escape every non-ASCII character: the line stays ASCII whatever the terminal coding.
    const line = JSON.stringify({ id, form, ...(body !== undefined ? { body } : {}), vars: Object.fromEntries(vars ?? []) }).replace(
      /[\u007f-\uffff]/g,
      (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'),
    );
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      proc.stdin!.write(line + '\n');
    });
  }

  /** End the Emacs process (its stdin is closed; it exits at end of input). */
  close(): void {
    this.proc?.stdin?.end();
    this.proc = undefined;
  }
}

/** The `lisp-unavailable` error for a sheet's Lisp when Emacs is not installed, naming the variable or hook and its line. */
export function noEmacsError(file: string, what: string, line: number): EngineError {
  return new EngineError('lisp-unavailable', `${what} in ${file} needs Emacs to evaluate its Lisp form, and no emacs is on PATH`, {
    line,
    hint: 'Install Emacs (or set $EMACS to its path), or replace the := variable with = or --var.',
  });
}
