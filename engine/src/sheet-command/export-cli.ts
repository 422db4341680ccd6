/**
 * `sheet export --to TARGET FILE[:LINE]` (docs/sheet-run.md, "sheet export"): the request at a
 * line of a sheet or `.http` file (a bare FILE: its one request) as code (Python requests, JavaScript fetch, Go, HTTPie,
 * PowerShell, curl, ...), the same resolution and the same converter as Emacs's C-c C-S-u
 * (`sheet/code`: `../session/session.ts`, `../snippet/to-code.ts`), on stdout.
 *
 * `:=` Lisp variables are evaluated as `sheet run` evaluates them: by one `emacs --batch`
 * (lisp-batch.ts) when Emacs is on PATH (or `$EMACS`), not with `--untrusted`. Without it, the
 * error names the variable's line and the ways out: `--var`, Emacs on PATH, or C-c C-S-u in
 * Emacs (which evaluates the form in the sheet's buffer).
 *
 * Exit status: 0 printed; 2 nothing printed: a usage error (no `--to`, an unknown target, no
 * line for a file of several requests, an unreadable file) or a sheet error at that line (no request there, an
 * undefined environment, a `:=` Lisp variable without Emacs, a form that signals).
 */
import fs from 'node:fs';
import { isEngineError } from '../errors.js';
import { parseForFile } from '../http-file/index.js';
import { Session } from '../session/session.js';
import { codeTargets } from '../snippet/to-code.js';
import type { Io } from './io.js';
import { batchEmacsFor, batchEvalLisp } from './lisp-batch.js';

export const EXPORT_HELP = `Usage: sheet export --to TARGET FILE[:LINE] [--env NAME] [--var :name=value]... [--untrusted]
       sheet export --list

Print the request whose block holds LINE of FILE (a .sheet or .http file; FILE alone when it
holds one request) as code that sends it: --to python (Requests), javascript (fetch), node, go, httpie, wget, powershell, php, ruby,
java, csharp, swift, kotlin, c, curl, ... or TARGET-CLIENT (javascript-axios,
powershell-restmethod, ...): --list names them all. Variables are substituted as sheet run
does (--var sets one, as a hook would; --env picks a .http environment); a := Lisp variable
is evaluated by a batch Emacs when emacs is on PATH (or $EMACS), as sheet run does, never with
--untrusted. The same as Emacs's C-c C-S-u. Exit status: 0 printed, 2 nothing printed (the
message says why).
`;

/**
 * Run `sheet export ARGS` (`args` without the subcommand).
 * @returns the exit status (see the file comment).
 */
export async function exportCommand(args: string[], io: Pick<Io, 'out' | 'err' | 'env'>): Promise<number> {
  const usage = (msg: string) => {
    io.err(`sheet export: ${msg}\nTry 'sheet export --help'.\n`);
    return 2;
  };
  let to: string | undefined;
  let env: string | undefined;
  let at: string | undefined;
  let untrusted = false;
  const vars: [string, string][] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => (a.includes('=') && a.startsWith('--') ? a.slice(a.indexOf('=') + 1) : args[++i]);
    if (a === '-h' || a === '--help') {
      io.out(EXPORT_HELP);
      return 0;
    }
    if (a === '--list') {
      io.out(codeTargets().map((t) => `${t.name.padEnd(24)} ${t.title}\n`).join(''));
      return 0;
    }
    if (a === '--untrusted') untrusted = true;
    else if (a === '--to' || a.startsWith('--to=')) to = value();
    else if (a === '--env' || a.startsWith('--env=')) env = value();
    else if (a === '--var' || a.startsWith('--var=')) {
      const s = value() ?? '';
      const m = /^(:?[^=\s]+)=([\s\S]*)$/.exec(s);
      if (!m) return usage(`--var ${s}: use --var :name=value`);
      vars.push([m[1]!, m[2]!]);
    } else if (a.startsWith('-') && a !== '-') return usage(`unknown option ${a}`);
    else if (at === undefined) at = a;
    else return usage(`one FILE:LINE only (got ${at} and ${a})`);
  }
  if (!to) return usage('--to TARGET is needed (sheet export --list names them)');
  if (!at) return usage('FILE:LINE is needed, e.g. sheet export --to python api.sheet:12');
  // FILE:LINE names a request; a bare FILE is enough when it holds one request.
  const m = /^(.+):([1-9]\d*)$/.exec(at);
  const file = m ? m[1]! : at;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if (!m && !fs.existsSync(file)) return usage(`${at}: give the file and a line of its request, FILE:LINE (e.g. api.sheet:12)`);
    return usage(`cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let line = m ? Number(m[2]) : 0;
  if (!m) {
    const lines = parseForFile(text, file).requests.map((r) => r.line);
    if (lines.length !== 1) {
      const which = lines.length ? `${lines.length} requests (lines ${lines.join(', ')})` : 'no request';
      return usage(`${file} holds ${which}: give the line of one, FILE:LINE (e.g. ${file}:${lines[0] ?? 1})`);
    }
    line = lines[0]!;
  }
  const lisp = batchEmacsFor(io.env, untrusted);
  const session = new Session(lisp && batchEvalLisp(lisp));
  // Overrides are kept by name with the colon, in both syntaxes (as `sheet run --var`).
  for (const [n, v] of vars) session.overrides.set(n.startsWith(':') ? n : `:${n}`, v);
  try {
    const { code } = await session.code({ text, line, path: file, target: to, ...(env ? { env } : {}) });
    io.out(code);
    return 0;
  } catch (e) {
    if (!isEngineError(e)) throw e;
    const where = e.line !== undefined ? `${file}:${e.line}: ` : `${file}: `;
    if (e.code === 'lisp-unavailable' && typeof e.details?.variable === 'string') {
      const name = e.details.variable;
      const why = untrusted ? '--untrusted evaluates nothing a file carries' : 'no emacs is on PATH (nor $EMACS)';
      io.err(
        `sheet export: ${where}${name} is a Lisp (:=) variable: its form needs Emacs, and ${why}\n` +
          `  Give its value: --var ${name}=VALUE; ${untrusted ? 'or drop --untrusted' : 'or install Emacs (or set $EMACS) and sheet export evaluates it'}; or copy the request from Emacs (C-c C-S-u, M-x sheet-copy-as-code).\n`,
      );
      return 2;
    }
    io.err(`sheet export: ${where}${e.message.replace(/^line \d+: /, '')}${e.hint ? `\n  ${e.hint}` : ''}\n`);
    return 2;
  } finally {
    lisp?.close();
  }
}
