/**
 * The `{{...}}` substitution pass of `.http` files (VS Code REST Client and JetBrains HTTP
 * Client syntax; docs/http-files.md "Variables"), beside the `:name` pass of substitute.ts.
 *
 * `{{name}}` looks, in this order, in: prompt answers, the client's overrides, the JetBrains
 * environment, `client.global` values, request variables (`{{login.response.body.$.token}}`),
 * file variables (`@name = value`), the VS Code environment, per-request variables (see
 * `lookup`). Declared values may hold references themselves, resolved up to `maxDepth` levels. `{{$...}}` are system variables. An unknown name is an error naming it.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { JSONPath } from 'jsonpath-plus';
import { EngineError } from '../errors.js';
import { headerValue, type Header } from '../model.js';
import { randomVariable } from './http-random.js';
import { DATE_VARIABLES, dateVariable } from './http-dates.js';

/** What a named request left for `{{name.request...}}` / `{{name.response...}}`. */
export interface RequestRecord {
  request: { headers: Header[]; body?: string };
  response?: { status: number; headers: Header[]; body: string };
}

/**
 * A request of the run that failed (transport or resolve error), for the error of a later
 * request that needs one of its values: its `# @name`, and the `client.global.set` names its
 * response handlers would have set.
 */
export interface FailedRequest {
  line: number;
  name?: string;
  /** Names its handlers set with `client.global.set("name", ...)`. */
  sets: string[];
  message: string;
}

export interface HttpVarContext {
  /** Requests that failed before this one (sheet run goes on after a failure). */
  failed?: ReadonlyMap<string, FailedRequest>;
  /** File variables (`@name = value`): name -> raw value (may hold `{{...}}`). */
  fileVars?: ReadonlyMap<string, string>;
  /** Environment variables of the chosen environment (`$shared` already merged under it). */
  env?: Readonly<Record<string, string>>;
  /** Names of `env` whose value is a JetBrains environment file's: they win over globals and file variables. */
  jetbrainsEnv?: ReadonlySet<string>;
  /** Values the client set (sheet-set-var, `--var`): they win over everything but prompt answers. */
  overrides?: ReadonlyMap<string, string>;
  /** `client.global.set` values (JetBrains globals): below the JetBrains environment, above file variables. */
  globals?: ReadonlyMap<string, string>;
  /** Per-request variables (`request.variables.set` in a pre-request script): last, as JetBrains ranks them. */
  requestVars?: ReadonlyMap<string, string>;
  /** Answers to `# @prompt name` directives. */
  prompts?: ReadonlyMap<string, string>;
  /** Named requests sent before (`# @name login`). */
  requests?: ReadonlyMap<string, RequestRecord>;
  /** `{{$dotenv NAME}}`: the values of the `.env` file next to the `.http` file. */
  dotenv?: Readonly<Record<string, string>>;
  /** `{{$processEnv NAME}}`; default process.env. */
  processEnv?: Readonly<Record<string, string | undefined>>;
  /** Clock for `$timestamp` and `$datetime`; default `new Date()`. */
  now?: () => Date;
  /** Nesting limit of references in values (default 10). */
  maxDepth?: number;
  /** Not a variable: the environment's client certificates by host, carried to the send (http-file/env-certificates.ts). */
  clientCertificates?: Readonly<Record<string, { cert: string; key?: string; pass?: string }>>;
  /** `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}`: the tokens the session obtained for the request, by auth id (engine/src/tokens/). */
  authTokens?: ReadonlyMap<string, { token: string; idToken?: string }>;
  /** Not a variable: the environment's `Security.Auth` configurations (http-file/env-auth.ts), carried to the session's token step. */
  authEnvironment?: { auth: Readonly<Record<string, { config: Record<string, unknown>; files: string[] }>>; environment?: string; files: string[] };
}

/** `$auth.token("id")` / `$auth.idToken("id")` (JetBrains), quotes single or double. */
const AUTH_CALL = /^\$auth\.(token|idToken)\(\s*(?:"([^"]*)"|'([^']*)')\s*\)$/;

/** One `{{$auth.token("id")}}` / `{{$auth.idToken("id")}}` a request needs. */
export interface AuthReference {
  id: string;
  kind: 'token' | 'idToken';
}

/**
 * The auth ids that `texts` (a request's URL, header values, body, directives) need, also
 * through the declared values they refer to (file variables, the environment, the client's
 * overrides; values computed at run time are text and hold none), so the session can obtain
 * every token before the synchronous `{{...}}` pass.
 */
export function authReferences(texts: string[], ctx: HttpVarContext): AuthReference[] {
  const out = new Map<string, AuthReference>();
  const seen = new Set<string>();
  const scan = (t: string): void => {
    for (const expr of httpReferences(t)) {
      const m = AUTH_CALL.exec(expr);
      if (m) {
        const ref: AuthReference = { id: m[2] ?? m[3]!, kind: m[1] as AuthReference['kind'] };
        out.set(`${ref.kind}:${ref.id}`, ref);
        continue;
      }
      if (expr.startsWith('$') || seen.has(expr)) continue;
      seen.add(expr);
      for (const v of [ctx.overrides?.get(expr), ctx.env && Object.prototype.hasOwnProperty.call(ctx.env, expr) ? ctx.env[expr] : undefined, ctx.fileVars?.get(expr)]) if (v !== undefined) scan(String(v));
    }
  };
  for (const t of texts) scan(t);
  return [...out.values()];
}

const REF = /\{\{\s*(.*?)\s*\}\}/g;
/** The names referenced by `{{...}}` in `text` (system variables included, with their `$`). */
export function httpReferences(text: string): string[] {
  return [...text.matchAll(REF)].map((m) => m[1]!);
}

/**
 * Replace every `{{...}}` of `text`.
 * @param line the file line of the template, for errors.
 * @throws EngineError `unknown-variable` (name not defined anywhere), `vars-cycle` (nesting
 *   deeper than `maxDepth`), `unsupported-construct` (a system variable we do not implement,
 *   e.g. `$aadToken`), `bad-argument` (a system variable with bad arguments).
 */
export function substituteHttp(text: string, ctx: HttpVarContext, line?: number, depth = 0): string {
  if (!text.includes('{{')) return text;
  const max = ctx.maxDepth ?? 10;
  return text.replace(REF, (_all, expr: string) => {
    if (depth >= max) {
      throw new EngineError('vars-cycle', `{{${expr}}}: references nest deeper than ${max} levels (a cycle?)`, {
        line,
        hint: 'Check that no variable refers back to itself.',
        details: { variables: [expr] },
      });
    }
    if (expr.startsWith('$')) return systemVariable(expr, ctx, line);
    const raw = lookup(expr, ctx, line);
    // Values computed at run time (prompt answers, script values, response data) are text, not
    // templates: a `{{` in them is sent as it is. Declared values may refer to others.
    return typeof raw === 'string' ? substituteHttp(raw, ctx, line, depth + 1) : raw.text;
  });
}

/**
 * The value of `{{name}}`, first found in: prompt answers; the client's overrides; the JetBrains
 * environment (http-client.env.json and its private file); `client.global` values; request
 * variables; file variables (`@name`); the VS Code environment; per-request variables of a
 * pre-request script. For JetBrains sources this is the order JetBrains documents ("HTTP Client
 * variables": environment, global, in-place, per-request); for VS Code sources REST Client's
 * (request variables, file variables, environment). A value computed at run time comes back as
 * `{ text }`: it is not a template.
 */
function lookup(name: string, ctx: HttpVarContext, line?: number): string | { text: string } {
  if (ctx.prompts?.has(name)) return { text: ctx.prompts.get(name)! };
  if (ctx.overrides?.has(name)) return ctx.overrides.get(name)!;
  if (ctx.jetbrainsEnv?.has(name) && ctx.env && Object.prototype.hasOwnProperty.call(ctx.env, name)) return String(ctx.env[name]);
  if (ctx.globals?.has(name)) return { text: ctx.globals.get(name)! };
  const rv = requestVariable(name, ctx, line);
  if (rv !== undefined) return { text: rv };
  if (ctx.fileVars?.has(name)) return ctx.fileVars.get(name)!;
  if (ctx.env && Object.prototype.hasOwnProperty.call(ctx.env, name)) return String(ctx.env[name]);
  if (ctx.requestVars?.has(name)) return { text: ctx.requestVars.get(name)! };
  const setter = [...(ctx.failed?.values() ?? [])].find((f) => f.sets.includes(name));
  if (setter) throw failedError(`{{${name}}}`, setter, line);
  throw new EngineError('unknown-variable', `{{${name}}} is not defined`, {
    line,
    hint: `Declare it (@${name} = value), put it in the chosen environment (http-client.env.json or rest-client.environmentVariables), or send the request that names it first.`,
    details: { variable: name },
  });
}

function failedError(what: string, f: FailedRequest, line?: number): EngineError {
  return new EngineError('unknown-variable', `${what} needs a value from request ${f.name ? `${f.name} ` : ''}(line ${f.line}), which failed: ${f.message}`, {
    line,
    hint: `Make the request at line ${f.line} succeed first.`,
    details: { variable: what.slice(2, -2), failedLine: f.line },
  });
}

/** `login.response.body.$.token`, `login.response.headers.X-Token`, `login.request.body.*`. */
function requestVariable(expr: string, ctx: HttpVarContext, line?: number): string | undefined {
  const other = /^[\w-]+\.(?:request|response)\.(?!(?:body|headers)(?:\.|$))(\w+)/.exec(expr);
  if (other && !ctx.fileVars?.has(expr) && !(ctx.env && Object.prototype.hasOwnProperty.call(ctx.env, expr))) {
    // kulala.nvim's `{{login.response.cookies.NAME.value}}` (its demos/4.cookie.http) and the like.
    throw new EngineError('unsupported-construct', `{{${expr}}}: a request variable reads .body or .headers (REST Client, JetBrains), not .${other[1]}`, {
      line,
      hint: 'Read the header instead ({{name.response.headers.Set-Cookie}}), or set a value in a response handler (client.global.set).',
      details: { variable: expr },
    });
  }
  const m = /^([\w-]+)\.(request|response)\.(body|headers)(?:\.(.*))?$/.exec(expr);
  if (!m || !ctx.requests) return undefined;
  const [, name, side, part, path] = m as unknown as [string, string, 'request' | 'response', string, string | undefined];
  const rec = ctx.requests.get(name);
  const failed = ctx.failed?.get(name);
  if (failed && !ctx.fileVars?.has(expr)) throw failedError(`{{${expr}}}`, failed, line);
  if (!rec) {
    if (!ctx.fileVars?.has(expr)) {
      throw new EngineError('unknown-variable', `{{${expr}}}: no request named ${name} has been sent`, {
        line,
        hint: `Send the request marked # @name ${name} first.`,
        details: { variable: expr, request: name },
      });
    }
    return undefined;
  }
  const src = side === 'request' ? rec.request : rec.response;
  if (!src) throw new EngineError('unknown-variable', `{{${expr}}}: request ${name} has no response yet`, { line, details: { variable: expr } });
  if (part === 'headers') return headerValue(src.headers, path ?? '') ?? '';
  const body = src.body ?? '';
  if (path === undefined || path === '*') return body;
  if (path.startsWith('/') || path.startsWith('//')) {
    throw new EngineError('unsupported-construct', `{{${expr}}}: XPath on XML bodies is not supported`, { line, hint: 'Use a JSONPath ($.field) on a JSON body, or a response handler.' });
  }
  // VS Code REST Client hands the path, as written, to jsonpath-plus, which reads `token` and
  // `data.items[0].id` as `$.token` and `$.data.items[0].id`: so does this.
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new EngineError('bad-argument', `{{${expr}}}: the ${side} body of ${name} is not JSON`, { line, hint: 'Use {{name.response.body.*}} for the whole body.' });
  }
  let found: unknown[];
  try {
    found = JSONPath({ path, json: json as object, wrap: true }) as unknown[];
  } catch (e) {
    throw new EngineError('bad-argument', `{{${expr}}}: ${path} is not a JSONPath (${(e as Error).message})`, { line, hint: 'Write {{name.response.body.$.field}}, {{name.response.body.field}} or {{name.response.body.*}}.' });
  }
  const v = found[0];
  if (v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** `$guid`, `$randomInt`, `$processEnv`, `$dotenv`, JetBrains' `$uuid`; the dates in http-dates.ts, `$random.*` in http-random.ts. */
function systemVariable(expr: string, ctx: HttpVarContext, line?: number): string {
  if (expr.startsWith('$random.')) return randomVariable(expr, line);
  if (expr.startsWith('$auth.')) return authVariable(expr, ctx, line);
  const words = expr.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const name = words[0]!;
  const args = words.slice(1);
  const bad = (hint: string) => new EngineError('bad-argument', `{{${expr}}}: bad arguments`, { line, hint });
  if (DATE_VARIABLES.has(name)) return dateVariable(name, args, expr, (ctx.now ?? (() => new Date()))(), line);
  switch (name) {
    case '$guid':
    case '$uuid':
      return randomUUID();
    case '$randomInt': {
      if (!args.length) return String(randomInt(0, 1000));
      const [a, b] = args.map(Number);
      if (args.length !== 2 || !Number.isInteger(a) || !Number.isInteger(b) || b! <= a!) throw bad('Write {{$randomInt min max}} with integers, min < max.');
      return String(randomInt(a!, b!));
    }
    case '$processEnv':
    case '$dotenv': {
      let key = args[0];
      if (!key) throw bad(`Write {{${name} NAME}}.`);
      const penv = ctx.processEnv ?? process.env;
      if (key.startsWith('%')) key = String(ctx.env?.[key.slice(1)] ?? '');
      const v = name === '$processEnv' ? penv[key] : ctx.dotenv?.[key];
      return v ?? '';
    }
    default:
      throw new EngineError('unsupported-construct', `system variable ${name} is not supported`, {
        line,
        hint: 'Supported: $auth.token("id"), $auth.idToken("id"), $guid, $uuid, $randomInt, $random.*, $timestamp, $isoTimestamp, $date, $datetime, $localDatetime, $processEnv, $dotenv (docs/http-files.md).',
        details: { variable: name },
      });
  }
}

/** `{{$auth.token("id")}}`, `{{$auth.idToken("id")}}`: what the session obtained (authReferences). */
function authVariable(expr: string, ctx: HttpVarContext, line?: number): string {
  const m = AUTH_CALL.exec(expr);
  if (!m) {
    throw new EngineError('bad-argument', `{{${expr}}}: bad arguments`, { line, hint: 'Write {{$auth.token("id")}} or {{$auth.idToken("id")}}, the id of a "Security": {"Auth": {...}} entry of the environment.' });
  }
  const id = m[2] ?? m[3]!;
  const got = ctx.authTokens?.get(id);
  if (!got) {
    throw new EngineError('unknown-auth', `{{${expr}}}: no token was obtained for auth ${JSON.stringify(id)}`, {
      line,
      hint: 'Send the request from a .http file whose environment declares it ("Security": {"Auth": {...}} in http-client.env.json).',
      details: { auth: id },
    });
  }
  if (m[1] === 'token') return got.token;
  if (got.idToken === undefined) {
    throw new EngineError('token-request-failed', `{{${expr}}}: the token endpoint gave no ID token for auth ${JSON.stringify(id)}`, {
      line,
      hint: 'Add "openid" to its Scope (OpenID Connect gives an id_token then), or use {{$auth.token(...)}}.',
      details: { auth: id, reason: 'no-id-token' },
    });
  }
  return got.idToken;
}
