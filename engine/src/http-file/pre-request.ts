/**
 * JetBrains pre-request scripts (`< {% ... %}` and `< ./script.js` above the request line;
 * JetBrains HTTP Client "Pre-request scripts"): run before the request is resolved, in the same
 * `node:vm` sandbox as response handlers (handlers.ts), with `client` (`client.global`,
 * `client.log`) and `request` (request-api.ts; `request.variables.set` makes a per-request
 * variable for this request's `{{name}}`). The request they see is the template, with what is
 * known so far substituted (`tryGetSubstituted`); `{{...}}` nobody defines stay as written.
 */
import type { RequestNode, Sheet } from '../sheet/ast.js';
import { substituteHttp, type HttpVarContext } from '../resolve/http-vars.js';
import { runHandlers, HANDLER_TIMEOUT_MS, type HandlerResult } from './handlers.js';
import type { HandlerRequest } from './request-api.js';

/** `text` with each `{{...}}` that resolves replaced, the others left as written. */
function trySubstitute(text: string, ctx: HttpVarContext): string {
  return text.replace(/\{\{\s*(.*?)\s*\}\}/g, (all) => {
    try {
      return substituteHttp(all, ctx);
    } catch {
      return all;
    }
  });
}

/** The body of `req` as its template text (file bodies as `< path`). */
function rawBody(req: RequestNode): string {
  const b = req.body;
  if (!b) return '';
  if (b.kind === 'text') return b.text;
  if (b.kind === 'file') return `<${b.substitute ? '@' : ''} ${b.path}`;
  return b.parts.map((p) => (p.kind === 'text' ? p.text : `<${p.substitute ? '@' : ''} ${p.path}`)).join('\n');
}

/**
 * The `request` data a script of `req` sees before the request is sent.
 * @param ctx the `{{...}}` sources; the file variables of `sheet` are added.
 */
export function requestBefore(sheet: Sheet, req: RequestNode, ctx: HttpVarContext, variables: ReadonlyMap<string, string> = new Map()): HandlerRequest {
  const fileVars = new Map(ctx.fileVars ?? []);
  for (const v of sheet.vars) fileVars.set(v.name, v.value);
  const c: HttpVarContext = { ...ctx, fileVars, requestVars: variables };
  const part = (raw: string) => ({ raw, value: trySubstitute(raw, c) });
  return {
    method: req.method,
    url: part(req.url),
    body: part(rawBody(req)),
    headers: req.headers.flatMap((h) => (h.kind === 'header' ? [{ name: h.name, ...part(h.value) }] : [])),
    env: { ...(ctx.env ?? {}) },
    variables: Object.fromEntries(variables),
  };
}

/**
 * Run the pre-request scripts of `req` (none: an empty result).
 * @param globals the `client.global` values before they run.
 * @param baseDir directory `< ./script.js` paths are relative to.
 * @returns their per-request variables (`variables`), the globals after them, what they
 *   cleared, their logs, and failures as tests named `pre-request script (line N)`.
 * @throws EngineError `file-unreadable` for a script file that cannot be read.
 */
export async function runPreRequest(sheet: Sheet, req: RequestNode, ctx: HttpVarContext, globals: ReadonlyMap<string, string>, baseDir: string, timeoutMs = HANDLER_TIMEOUT_MS): Promise<HandlerResult> {
  if (!req.preScripts?.length) return { tests: [], variables: new Map(), globals: new Map(globals), cleared: [], logs: [] };
  return runHandlers(req.preScripts, undefined, globals, baseDir, timeoutMs, requestBefore(sheet, req, ctx));
}
