/**
 * GitHub Actions annotations for `sheet run` (issue 26 item 2): when `GITHUB_ACTIONS=true`,
 * each failed assertion, sheet error and transport failure is also printed as the workflow
 * command `::error file=F,line=L,title=T::MESSAGE`, which GitHub shows on the pull request's
 * diff at that line. Format and escaping follow GitHub's "Workflow commands for GitHub
 * Actions" (docs.github.com, "Setting an error message") as the toolkit's
 * `@actions/core` `command.ts` implements them: in the message `%`, CR and LF become `%25`,
 * `%0D`, `%0A`; in a property value `:` and `,` also become `%3A` and `%2C`.
 */
import path from 'node:path';
import type { RequestResult, RunError } from './runner.js';
import { requestName } from './report.js';

/** A workflow command's message (`escapeData` in @actions/core). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`escapeProperty` in @actions/core). */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** Whether annotations are on: GitHub sets `GITHUB_ACTIONS=true` in every step of a workflow. */
export function annotationsOn(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/**
 * The file as GitHub names it: relative to the checkout (`GITHUB_WORKSPACE`, else the current
 * directory), with `/` separators.
 */
export function repoPath(file: string, env: NodeJS.ProcessEnv): string {
  const rel = path.relative(env.GITHUB_WORKSPACE || process.cwd(), path.resolve(file));
  return rel.split(path.sep).join('/');
}

/** One `::error` line (with its newline). */
export function errorCommand(file: string, line: number | undefined, title: string, message: string): string {
  const props = [`file=${escapeProperty(file)}`, ...(line !== undefined ? [`line=${line}`] : []), `title=${escapeProperty(title)}`];
  return `::error ${props.join(',')}::${escapeData(message)}\n`;
}

/**
 * The annotations of one request: one per failed assertion (at the assertion's line), or one for
 * its error (at the error's line, else the request line).
 */
export function requestAnnotations(r: RequestResult, env: NodeJS.ProcessEnv): string[] {
  const file = repoPath(r.file, env);
  const title = `sheet run: ${requestName(r)}`;
  if (r.error) return [errorCommand(file, r.error.line ?? r.line, title, r.error.message + (r.error.hint ? `\nhint: ${r.error.hint}` : ''))];
  return r.assertions.filter((a) => !a.passed).map((a) => errorCommand(file, a.line, title, `${path.basename(r.file)}:${a.message.replace(/^line /, '')}`));
}

/** The annotation of a file's sheet error (the file did not run). */
export function fileAnnotation(file: string, e: RunError, env: NodeJS.ProcessEnv): string {
  return errorCommand(repoPath(file, env), e.line, `sheet run: ${path.basename(file)}`, e.message + (e.hint ? `\nhint: ${e.hint}` : ''));
}
