/**
 * Assertion hooks (sheet format doc, "Assertions"), in restclient's hook family `-> name args`:
 * - `-> expect-status 200` (or `2xx`, or several: `200 201`): the response status;
 * - `-> expect-header Name REGEXP`: the header is present and its value matches (JavaScript
 *   regular expression; without REGEXP, presence only);
 * - `-> expect-jq EXPR`: jq (the system jq through node-jq, as `jq-set-var`) prints `true`;
 * - `-> expect-body REGEXP`: the body text matches;
 * - `-> expect-time < 500`: the exchange's duration in ms (`<`, `<=`, `>`, `>=`, `=`; default `<`);
 * - `-> expect-events >= 3`: a streamed response's number of events (SSE, NDJSON, chunks;
 *   session/stream.ts; the same comparisons, default `>=`), however it ended;
 * - `-> expect-event EXPR`: some event of a stream, its data as JSON (else as a string), makes
 *   the jq expression true (`-> expect-event '.type == "done"'`);
 * - `-> expect-grpc-status OK` (a name or code, or several): a GRPC request's status (../grpc/status.ts).
 * Any of them ends in the word `retry` to be retryable (`-> expect-status 200 retry`): `sheet
 * run --retry N` sends the request again while it fails (sheet-command/retry.ts); elsewhere it is an
 * ordinary assertion.
 * The names and shapes follow hurl's asserts (status, header, jsonpath/jq, body, duration) and
 * VS Code REST Client's request-chaining users' requests (#199, #432). A failing assertion's
 * message names the line, the expectation and what came back (the first 200 bytes of the body).
 */
import type { HookNode } from '../sheet/ast.js';
import { headerValue, type Header } from '../model.js';
import type { Assertion } from './results.js';
import { HTTPYAC_ASSERT, checkHttpyacAssert, evaluateHttpyacAssert } from './httpyac-assert.js';

import type { ExpectContext } from './results.js';
import { grpcStatusCode, grpcStatusName } from '../grpc/status.js';
export type { ExpectContext };

/** The assertion hooks, for `HOOK_TYPES` (C-c C-i). */
export const EXPECT_TYPES = [
  { name: 'expect-status', args: '200 | 2xx | 200 201 [retry]', doc: 'Assert the response status (a code, a class like 2xx, or any of several); a last word retry: sent again under sheet run --retry until it passes.' },
  { name: 'expect-header', args: 'Name [REGEXP]', doc: 'Assert the header is present and its value matches the regular expression.' },
  { name: 'expect-jq', args: '<jq expression>', doc: 'Assert the jq expression prints true on the response body.' },
  { name: 'expect-body', args: 'REGEXP', doc: 'Assert the response body matches the regular expression.' },
  { name: 'expect-time', args: '< 500', doc: 'Assert the exchange took less than (<, <=, >, >=, =) that many ms.' },
  { name: 'expect-events', args: '>= 3', doc: 'Assert a streamed response (SSE, NDJSON) gave at least (>=, >, <, <=, =) that many events.' },
  { name: 'expect-event', args: '<jq expression>', doc: 'Assert some event of a streamed response makes the jq expression true (its data as JSON).' },
  { name: 'expect-grpc-status', args: 'OK | NOT_FOUND | 5 [retry]', doc: 'Assert the gRPC status of a GRPC request (a name or a code, or any of several); without it a status other than OK fails the request.' },
];

/** Whether `name` is an assertion hook: an `expect-*` name, or httpyac's `??` (`.http` files, httpyac-assert.ts). */
export function isExpectHook(name: string): boolean {
  return name === HTTPYAC_ASSERT || name.startsWith('expect-');
}

/** The marker of a retryable assertion: the last word of its arguments (docs/sheet-format.md). */
const RETRY_MARK = /(?:^|\s+)retry\s*$/;

/**
 * An assertion's arguments without the trailing `retry` marker, and whether it was there.
 * The marker is the last whitespace-separated word `retry` (a regexp that must end in the word
 * retry is written `retr[y]`).
 */
export function splitRetry(args: string): { args: string; retry: boolean } {
  const m = RETRY_MARK.exec(args);
  return m ? { args: args.slice(0, m.index), retry: true } : { args, retry: false };
}

/** Whether a hook is an assertion marked retryable (`-> expect-status 200 retry`). */
export function isRetryable(h: HookNode): boolean {
  return isExpectHook(h.name) && splitRetry(h.args).retry;
}

/** How many bytes of the body a failure message shows. */
export const BODY_EXCERPT_BYTES = 200;

/** The first {@link BODY_EXCERPT_BYTES} bytes of `text` (never cutting a character), on one line. */
export function excerpt(text: string): string {
  const buf = Buffer.from(text, 'utf8');
  let s = buf.length > BODY_EXCERPT_BYTES ? buf.subarray(0, BODY_EXCERPT_BYTES).toString('utf8').replace(/\uFFFD$/, '') + '…' : text;
  s = s.replace(/\s+/g, ' ').trim();
  return s ? `body ${s}` : '(empty body)';
}

/** `'x'` or `"x"` -> `x`: the examples quote jq expressions as on a shell line. */
function unquote(s: string): string {
  const t = s.trim();
  if (t.length >= 2 && (t[0] === "'" || t[0] === '"') && t[t.length - 1] === t[0]) return t.slice(1, -1);
  return t;
}

function regexp(src: string): RegExp {
  return new RegExp(unquote(src));
}

/**
 * Evaluate one assertion hook against a response.
 * @param jq runs a jq filter on a text (the hooks' `runJq`), for `expect-jq`.
 * @returns the assertion with `passed` and a one-line `message` (`line N: ...`). A bad argument
 *   (an invalid regexp, a jq syntax error) is a failed assertion whose message says so: never throws.
 */
export async function evaluateExpect(hook: HookNode, ctx: ExpectContext, jq: (filter: string, input: string) => Promise<string>): Promise<Assertion> {
  if (hook.name === HTTPYAC_ASSERT) return evaluateHttpyacAssert(hook, ctx);
  const at = `line ${hook.line}: ${hook.name} ${hook.args}`.trimEnd();
  // The report keeps the arguments as written (with `retry`); the check reads them without.
  const h = { ...hook, args: splitRetry(hook.args).args };
  const result = (passed: boolean, got: string): Assertion => ({
    line: h.line,
    name: h.name,
    args: hook.args,
    passed,
    message: passed ? `${at}: ok (${got})` : `${at}: failed, got ${got}`,
  });
  const statusLine = `${ctx.status}${ctx.statusText ? ' ' + ctx.statusText : ''}`;
  try {
    switch (h.name) {
      case 'expect-status': {
        const wanted = h.args.split(/[\s,|]+/).filter(Boolean);
        if (!wanted.length || !wanted.every((w) => /^[1-5]([0-9]{2}|xx)$/i.test(w))) {
          return bad(hook, at, 'a status code (200) or class (2xx)');
        }
        const code = String(ctx.status);
        const ok = wanted.some((w) => (/xx$/i.test(w) ? w[0] === code[0] : w === code));
        return result(ok, ok ? statusLine : `${statusLine}: ${excerpt(ctx.bodyText)}`);
      }
      case 'expect-grpc-status': {
        const wanted = grpcStatuses(h.args);
        if (!wanted) return bad(hook, at, GRPC_STATUS_WANTED);
        // A gRPC exchange's status is its gRPC code (session/grpc.ts).
        const ok = wanted.includes(ctx.status);
        return result(ok, ok ? grpcStatusName(ctx.status) : `${ctx.statusText || grpcStatusName(ctx.status)}: ${excerpt(ctx.bodyText)}`);
      }
      case 'expect-header': {
        const m = /^(\S+)(?:\s+([\s\S]+))?$/.exec(h.args.trim());
        if (!m) return bad(hook, at, 'a header name and an optional regular expression: -> expect-header Content-Type json');
        const value = headerValue(ctx.headers, m[1]!.replace(/:$/, ''));
        if (value === undefined) return result(false, `no ${m[1]} header (status ${statusLine})`);
        const ok = m[2] === undefined || regexp(m[2]).test(value);
        return result(ok, `${m[1]}: ${value}`);
      }
      case 'expect-jq': {
        if (!h.args.trim()) return bad(hook, at, 'a jq expression: -> expect-jq \'.items | length > 0\'');
        let out: string;
        try {
          out = await jq(unquote(h.args), ctx.bodyText);
        } catch (e) {
          const msg = (e instanceof Error ? e.message : String(e)).trim().split('\n')[0];
          return result(false, `jq error ${JSON.stringify(msg)} on ${excerpt(ctx.bodyText)}`);
        }
        const ok = out.trim() === 'true';
        return result(ok, ok ? 'true' : `${JSON.stringify(out.length > 200 ? out.slice(0, 200) + '…' : out)} on ${excerpt(ctx.bodyText)}`);
      }
      case 'expect-body': {
        if (!h.args.trim()) return bad(hook, at, 'a regular expression: -> expect-body "name": "Ada"');
        const ok = regexp(h.args).test(ctx.bodyText);
        return result(ok, ok ? 'a match' : excerpt(ctx.bodyText));
      }
      case 'expect-time': {
        const m = /^(<=|>=|<|>|==?)?\s*(\d+(?:\.\d+)?)\s*(ms)?$/.exec(h.args.trim());
        if (!m) return bad(hook, at, 'a comparison in ms: -> expect-time < 500');
        const t = ctx.durationMs;
        return result(compare(t, m[1] ?? '<', Number(m[2])), `${Math.round(t)} ms`);
      }
      case 'expect-events': {
        const m = EVENTS_ARG.exec(h.args.trim());
        if (!m) return bad(hook, at, 'a comparison with a number of events: -> expect-events >= 3');
        if (!ctx.stream) return result(false, `no stream (status ${statusLine}, ${excerpt(ctx.bodyText)})`);
        const n = ctx.stream.count;
        return result(compare(n, m[1] ?? '>=', Number(m[2])), `${n} event${n === 1 ? '' : 's'}, ${ctx.stream.ended}`);
      }
      case 'expect-event': {
        if (!h.args.trim()) return bad(hook, at, "a jq expression: -> expect-event '.type == \"done\"'");
        if (!ctx.stream) return result(false, `no stream (status ${statusLine}, ${excerpt(ctx.bodyText)})`);
        // One jq run over every kept event: an error on one event (`.n` of a string) is false for it.
        const input = JSON.stringify(ctx.stream.data.map((d) => { try { return JSON.parse(d); } catch { return d; } }));
        let out: string;
        try {
          out = await jq(`any(.[]; try (${unquote(h.args)}) catch false)`, input);
        } catch (e) {
          return result(false, `jq error ${JSON.stringify((e instanceof Error ? e.message : String(e)).trim().split('\n')[0])}`);
        }
        const ok = out.trim() === 'true';
        return result(ok, ok ? 'a matching event' : `none of ${ctx.stream.data.length} events`);
      }
      default:
        return bad(hook, at, `one of ${EXPECT_TYPES.map((t) => t.name).join(', ')}`);
    }
  } catch (e) {
    // An invalid regular expression.
    return { line: h.line, name: h.name, args: hook.args, passed: false, message: `${at}: failed: ${(e as Error).message}` };
  }
}

/** `expect-events`'s argument: an optional comparison and a count. */
const EVENTS_ARG = /^(<=|>=|<|>|==?)?\s*(\d+)\s*(events?)?$/;

/** `a OP b` for the comparisons of `expect-time` and `expect-events`. */
function compare(a: number, op: string, b: number): boolean {
  return op === '<' ? a < b : op === '<=' ? a <= b : op === '>' ? a > b : op === '>=' ? a >= b : a === b;
}

const GRPC_STATUS_WANTED = 'a gRPC status name or code (OK, NOT_FOUND, 5), or several';

/** `OK NOT_FOUND` as codes, or undefined when a word names no gRPC status. */
function grpcStatuses(args: string): number[] | undefined {
  const words = args.split(/[\s,|]+/).filter(Boolean).map(grpcStatusCode);
  return words.length && words.every((w) => w !== undefined) ? (words as number[]) : undefined;
}

function bad(h: HookNode, at: string, wanted: string): Assertion {
  return { line: h.line, name: h.name, args: h.args, passed: false, message: `${at}: failed: the argument must be ${wanted}` };
}

/**
 * What is wrong with an assertion hook's form, before anything is sent (issue 26 item 5):
 * an unknown `expect-*` name, a missing or malformed argument, a regular expression that does
 * not compile; the argument rules of {@link evaluateExpect}. jq syntax is left to jq.
 * @returns `expect-status ok: the argument must be ...`, or undefined when the hook is well formed.
 */
export function checkExpect(hook: HookNode): string | undefined {
  if (hook.name === HTTPYAC_ASSERT) return checkHttpyacAssert(hook);
  const at = `${hook.name} ${hook.args}`.trimEnd();
  const h = { ...hook, args: splitRetry(hook.args).args };
  const must = (wanted: string) => `${at}: the argument must be ${wanted}`;
  const compiles = (src: string) => {
    try {
      regexp(src);
      return undefined;
    } catch (e) {
      return `${at}: ${(e as Error).message}`;
    }
  };
  switch (h.name) {
    case 'expect-status': {
      const wanted = h.args.split(/[\s,|]+/).filter(Boolean);
      return wanted.length && wanted.every((w) => /^[1-5]([0-9]{2}|xx)$/i.test(w)) ? undefined : must('a status code (200) or class (2xx)');
    }
    case 'expect-grpc-status':
      return grpcStatuses(h.args) ? undefined : must(GRPC_STATUS_WANTED);
    case 'expect-header': {
      const m = /^(\S+)(?:\s+([\s\S]+))?$/.exec(h.args.trim());
      if (!m) return must('a header name and an optional regular expression: -> expect-header Content-Type json');
      return m[2] === undefined ? undefined : compiles(m[2]);
    }
    case 'expect-jq':
      return h.args.trim() ? undefined : must("a jq expression: -> expect-jq '.items | length > 0'");
    case 'expect-body':
      return h.args.trim() ? compiles(h.args) : must('a regular expression: -> expect-body "name": "Ada"');
    case 'expect-time':
      return /^(<=|>=|<|>|==?)?\s*(\d+(?:\.\d+)?)\s*(ms)?$/.test(h.args.trim()) ? undefined : must('a comparison in ms: -> expect-time < 500');
    case 'expect-events':
      return EVENTS_ARG.test(h.args.trim()) ? undefined : must('a comparison with a number of events: -> expect-events >= 3');
    case 'expect-event':
      return h.args.trim() ? undefined : must("a jq expression: -> expect-event '.type == \"done\"'");
    default:
      return `unknown assertion ${h.name} (known: ${EXPECT_TYPES.map((t) => t.name).join(', ')})`;
  }
}
