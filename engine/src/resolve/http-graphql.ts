/**
 * GraphQL requests of `.http` files (VS Code REST Client's "GraphQL" section): a request with
 * the header `X-REQUEST-TYPE: GraphQL` whose body is a query, optionally followed by a blank
 * line and a JSON object of variables, is sent as the JSON body GraphQL servers read over HTTP
 * (graphql.org "Serving over HTTP"): `{"query": ..., "operationName": ..., "variables": ...}`.
 *
 * The `X-REQUEST-TYPE` header is sent as written, as httpyac sends it (REST Client drops it; a
 * server ignores a header it does not know, and the bytes stay those of the reference client
 * the engine is compared with). Where the peers differ or fall short, this follows the GraphQL
 * specification: the operation
 * name is the name of the document's first named operation (`query`, `mutation` or
 * `subscription`; REST Client reads `query` only, httpyac sends an anonymous `{ ... }` query as
 * raw text), omitted for an anonymous one; `variables` is sent only when written (as httpyac);
 * `Content-Type: application/json` is added when the request has no content type.
 */
import { EngineError } from '../errors.js';
import { headerValue, type Header } from '../model.js';

/**
 * Whether a GraphQL request's URL, as resolved, is a WebSocket one (`ws://`, `wss://`): then it
 * is a subscription (or any operation) over the `graphql-transport-ws` subprotocol, as httpyac
 * sends it (issue 40; ../ws/graphql.ts): the handshake's headers as written, the JSON payload
 * of {@link graphQlRequest} its `subscribe` message.
 */
export function isGraphQlWebSocket(url: string): boolean {
  return /^wss?:\/\//i.test(url);
}

/** `Content-Type: application/graphql` (parameters allowed), replaced by JSON's once converted. */
const GRAPHQL_TYPE = /^[ \t]*application\/graphql[ \t]*(?:;|$)/i;

/**
 * Whether `headers` mark a GraphQL request: `X-REQUEST-TYPE: GraphQL` (any case; VS Code REST
 * Client). A sheet also marks one with `# @graphql` (sheet/parse.ts `GRAPHQL_TAG`), a `.http`
 * file with JetBrains' `GRAPHQL` method. `Content-Type: application/graphql` alone is no mark,
 * in sheets (issue 37 item 4: restclient.el sends such a body as written; issue 25 item 6 had
 * made it one) as in `.http` files (their peers send it as written).
 */
export function isGraphQl(headers: Header[]): boolean {
  return /^[ \t]*graphql[ \t]*$/i.test(headerValue(headers, 'x-request-type') ?? '');
}

/** GraphQL's first named operation: `query Name`, `mutation Name`, `subscription Name`. */
const OPERATION = /(?:^|[\s}])(?:query|mutation|subscription)[ \t\r\n]+([_A-Za-z][_0-9A-Za-z]*)/;

/**
 * The operation name a GraphQL document names first, or undefined for an anonymous operation
 * (`{ users { id } }`, `query { ... }`, `query ($id: ID) { ... }`). `#` comments are skipped.
 */
export function operationName(query: string): string | undefined {
  const text = query.replace(/"""[\s\S]*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*/g, (s) => (s.startsWith('#') ? '' : '""'));
  return OPERATION.exec(text)?.[1];
}

/**
 * The index of the blank line before the variables in a GraphQL body's lines, or -1 when it has
 * none. The query may hold blank lines itself (a `fragment X on Y {` after the operation, issue
 * 36 item 11), so the variables are the last blank-separated part, when it is a JSON object: it
 * starts with `{` and either parses as JSON or follows a named operation (`query Q`, `mutation`,
 * `fragment`; then a part that does not parse is the `bad-argument` below, not query text).
 * An anonymous query (`{ a }`) followed by a part that does not parse is all query.
 */
function variablesStart(lines: string[]): number {
  let last = -1;
  for (let k = lines.length - 1; k > 0; k--) {
    if (lines[k]!.trim() === '' && lines.slice(k + 1).some((l) => l.trim() !== '')) {
      last = k;
      break;
    }
  }
  if (last < 0 || !lines.slice(0, last).some((l) => l.trim() !== '')) return -1;
  const tail = lines.slice(last + 1).join('\n').trim();
  if (!tail.startsWith('{')) return -1;
  try {
    JSON.parse(tail);
    return last;
  } catch {
    const head = lines.slice(0, last).join('\n').trim();
    return /^(?:query|mutation|subscription|fragment)\b/.test(head) ? last : -1;
  }
}

/**
 * The request to send for a GraphQL request (`.http` or sheet): `headers` (a JSON content type
 * added when none is given, or put in place of `application/graphql`: the body is JSON now)
 * and the JSON body.
 * @param text the body after the `{{...}}` pass: the query, then optionally a blank line and
 *   the variables as a JSON object.
 * @param line the body's first line in the file, for errors.
 * @throws EngineError `bad-argument` when the variables are not a JSON object (naming the line).
 */
export function graphQlRequest(headers: Header[], text: string, line: number): { headers: Header[]; body: string } {
  const lines = text.split(/\r?\n/);
  const blank = variablesStart(lines);
  const query = (blank < 0 ? lines : lines.slice(0, blank)).join('\n');
  const varsText = blank < 0 ? '' : lines.slice(blank + 1).join('\n').trim();
  const payload: { query: string; operationName?: string; variables?: unknown } = { query };
  const name = operationName(query);
  if (name) payload.operationName = name;
  if (varsText) {
    let vars: unknown;
    try {
      vars = JSON.parse(varsText);
    } catch (e) {
      vars = e;
    }
    if (typeof vars !== 'object' || vars === null || Array.isArray(vars) || vars instanceof Error) {
      throw new EngineError('bad-argument', `the GraphQL variables are not a JSON object${vars instanceof Error ? ` (${vars.message})` : ''}`, {
        line: line + blank + 1,
        hint: 'After the query, leave one blank line, then write the variables as a JSON object: {"id": 1}.',
      });
    }
    payload.variables = vars;
  }
  const out = headers.map(([n, v]): Header => (/^content-type$/i.test(n) && GRAPHQL_TYPE.test(v) ? [n, 'application/json'] : [n, v]));
  if (headerValue(out, 'content-type') === undefined) out.push(['Content-Type', 'application/json']);
  return { headers: out, body: JSON.stringify(payload) };
}
