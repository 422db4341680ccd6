/**
 * A Bruno request's `example` blocks (saved request/response pairs, `@usebruno/lang`'s
 * `examples`) as comment lines above the request (docs/import.md, "Bruno": a `.http` file has no
 * syntax for a response example, and JetBrains' `<> file` names a response a run saved, not one
 * written by hand). Each: its name and description, its request line when it differs from the
 * request's, the response's status line, headers and body, indented under the name. Pure.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- @usebruno/lang's untyped output

const str = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Comment lines (without the `# `, as `ImportedRequest.comments`) for `examples` of the request
 * `method url` (the URL as written in the `.http` file); [] when there are none.
 * @param vars Bruno's variable forms in a URL as the `.http` file writes them (bruno.ts `brunoVars`).
 */
export function exampleComments(examples: unknown, method: string, url: string, vars: (s: string) => string): string[] {
  if (!Array.isArray(examples)) return [];
  const out: string[] = [];
  for (const e of examples as Json[]) {
    if (!e || typeof e !== 'object') continue;
    const name = str(e.name).trim();
    const description = str(e.description).trim();
    out.push(`Bruno example${name ? ` "${name}"` : ''}${description ? `: ${description.split(/\r?\n/)[0]}` : ''}`);
    for (const l of description.split(/\r?\n/).slice(1)) out.push(`  ${l}`);
    const rm = str(e.request?.method).toUpperCase();
    const ru = vars(str(e.request?.url));
    if ((rm && rm !== method.toUpperCase()) || (ru && ru !== url)) out.push(`  request: ${rm || method.toUpperCase()} ${ru || url}`);
    const res = (e.response ?? {}) as Json;
    const status = str(res.status);
    if (status) out.push(`  response: ${status}${str(res.statusText) ? ` ${str(res.statusText)}` : ''}`);
    for (const h of Array.isArray(res.headers) ? (res.headers as Json[]) : []) if (h?.name && h.enabled !== false) out.push(`  ${str(h.name)}: ${str(h.value)}`);
    const content = str(res.body?.content);
    if (content.trim()) out.push('', ...content.replace(/\s+$/, '').split(/\r?\n/).map((l) => `  ${l}`));
  }
  return out;
}
