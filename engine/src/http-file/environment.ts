/**
 * Environments of `.http` files (docs/http-files.md "Environments"):
 * - JetBrains HTTP Client: `http-client.env.json` and `http-client.private.env.json` (the
 *   private file wins), `{ "dev": { "host": "..." }, "$shared": { ... } }`;
 * - VS Code REST Client: `"rest-client.environmentVariables"` in `.vscode/settings.json`
 *   (JSON with comments), `{ "$shared": { ... }, "local": { ... } }`;
 * - Visual Studio: `http-client.env.json` and, beside it, the per-user
 *   `http-client.env.json.user` (Microsoft Learn, "Use .http files in Visual Studio 2022":
 *   its values override the shared file's).
 * Each is found by walking up from the `.http` file's directory to the root (the nearest file
 * of each kind). Variables merge in this order, later winning: VS Code `$shared`, JetBrains
 * `$shared`, Visual Studio's user `$shared`, JetBrains' private `$shared`, then the same four
 * for the chosen environment.
 * The `.env` file for `{{$dotenv NAME}}` is the one next to the `.http` file (VS Code's rule).
 * The nearest `.env` at or above the file also gives plain `{{NAME}}` variables (httpyac and
 * kulala.nvim read it so), under every environment file's values and the file variables.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js'; // the ESM build: esbuild cannot bundle the UMD one (dynamic requires)
import { parse as parseDotenv } from 'dotenv';
import { EngineError } from '../errors.js';
import type { ClientCertSpec } from '../http/send.js';
import { addCertificates } from './env-certificates.js';
import { addAuth, type EnvAuth } from './env-auth.js';

export interface Environment {
  /** The chosen environment's name, or undefined for `$shared` only. */
  name?: string;
  /** Variable name -> value (a template: may hold `{{...}}`). */
  variables: Record<string, string>;
  /** Names whose value comes from a JetBrains file (they outrank globals and file variables). */
  jetbrains: Set<string>;
  /**
   * Names whose value comes from a private file (`http-client.private.env.json`, Visual Studio's
   * `http-client.env.json.user`): secrets, which an editor masks (issue 37 item 8).
   */
  secrets: Set<string>;
  /** The files read, nearest first. */
  files: string[];
  /** Every environment name the files define (without `$shared`), sorted. */
  available: string[];
  /** The `.env` next to the file (for `{{$dotenv}}`), empty when there is none. */
  dotenv: Record<string, string>;
  /**
   * Client certificates by host (`*`: every host): JetBrains' `SSLConfiguration`, httpyac's
   * `clientCertificates` (env-certificates.ts), paths absolute.
   */
  clientCertificates: Record<string, ClientCertSpec>;
  /**
   * JetBrains' `Security.Auth` configurations by auth id (`{{$auth.token("id")}}`): `$shared`'s
   * and the environment's, the public file's then the private file's, merged (env-auth.ts).
   */
  auth: Record<string, EnvAuth>;
}

const JB_PUBLIC = 'http-client.env.json';
const JB_PRIVATE = 'http-client.private.env.json';
/** Visual Studio's per-user file beside `http-client.env.json`, kept out of source control. */
const VS_USER = 'http-client.env.json.user';
const VSCODE_KEY = 'rest-client.environmentVariables';
/** VS Code REST Client's client certificates by host, for every environment. */
const VSCODE_CERTIFICATES = 'rest-client.certificates';

/** The nearest directory at or above `dir` holding `rel`, as the file's path. */
function findUp(dir: string, rel: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const f = path.join(d, rel);
    if (fs.existsSync(f)) return f;
    if (path.dirname(d) === d) return undefined;
  }
}

function readJson(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new EngineError('file-unreadable', `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { hint: 'Check the file\'s permissions.', details: { path: file } });
  }
  const errors: ParseError[] = [];
  const v = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length || typeof v !== 'object' || v === null || Array.isArray(v)) {
    const e = errors[0];
    const line = e ? text.slice(0, e.offset).split('\n').length : 1;
    throw new EngineError('bad-environment', `${file}: ${e ? printParseErrorCode(e.error) : 'not a JSON object'}`, {
      line,
      hint: 'Fix the JSON of the environment file (line given is in that file).',
      details: { path: file },
    });
  }
  return v as Record<string, unknown>;
}

/** The `NAME=value` lines of a `.env` file (dotenv's syntax). */
function readDotenv(file: string): Record<string, string> {
  try {
    return parseDotenv(fs.readFileSync(file));
  } catch (e) {
    throw new EngineError('file-unreadable', `cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { hint: 'Check the file\'s permissions.', details: { path: file } });
  }
}

/** String values of one environment section; objects (e.g. JetBrains' SSLConfiguration) are skipped. */
function section(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof v !== 'object' || v === null) return out;
  for (const [k, x] of Object.entries(v)) if (x === null || typeof x !== 'object') out[k] = String(x);
  return out;
}

/**
 * Load the environment `envName` for the `.http` file at `filePath`.
 * @param envName an environment name, or undefined for the `$shared` variables only.
 * @throws EngineError `bad-environment` when a file is not valid JSON (with its line) or when
 *   `envName` is defined by none of the files (the message lists those that are),
 *   `file-unreadable` when a found file cannot be read.
 */
export function loadEnvironment(filePath: string, envName?: string): Environment {
  const dir = path.dirname(path.resolve(filePath));
  const files: string[] = [];
  const sources: Record<string, unknown>[] = [];
  const vscode = findUp(dir, path.join('.vscode', 'settings.json'));
  let vs: Record<string, unknown> | undefined;
  let vsCertificates: unknown;
  if (vscode) {
    const settings = readJson(vscode);
    vsCertificates = settings[VSCODE_CERTIFICATES];
    const e = settings[VSCODE_KEY];
    if (e && typeof e === 'object') {
      vs = e as Record<string, unknown>;
      files.push(vscode);
    }
  }
  const pub = findUp(dir, JB_PUBLIC);
  const jbPub = pub ? readJson(pub) : undefined;
  if (pub) files.push(pub);
  // The private file lives beside the public one; without a public one, the nearest.
  const priv = pub ? (fs.existsSync(path.join(path.dirname(pub), JB_PRIVATE)) ? path.join(path.dirname(pub), JB_PRIVATE) : undefined) : findUp(dir, JB_PRIVATE);
  const jbPriv = priv ? readJson(priv) : undefined;
  if (priv) files.push(priv);
  // Visual Studio's user file: beside the public file (else the nearest), over the public one.
  const userFile = pub ? (fs.existsSync(path.join(path.dirname(pub), VS_USER)) ? path.join(path.dirname(pub), VS_USER) : undefined) : findUp(dir, VS_USER);
  const vsUser = userFile ? readJson(userFile) : undefined;
  if (userFile) files.push(userFile);
  const envFiles = [vs, jbPub, vsUser, jbPriv];
  for (const s of envFiles) if (s) sources.push(s);
  // `$shared` and other `$` keys (`$schema`, which kulala's environment files carry) are no environments.
  const available = [...new Set(sources.flatMap((s) => Object.keys(s)).filter((k) => !k.startsWith('$')))].sort();
  if (envName !== undefined && !available.includes(envName)) {
    throw new EngineError('bad-environment', `no environment named ${JSON.stringify(envName)}`, {
      hint: available.length ? `Choose one of: ${available.join(', ')}.` : `No environment file found above ${dir} (${JB_PUBLIC}, or ${VSCODE_KEY} in .vscode/settings.json).`,
      details: { available, files },
    });
  }
  const variables: Record<string, string> = {};
  // httpyac's and kulala's `.env` (the nearest above the file): plain variables, below the rest.
  const dotenvAbove = findUp(dir, '.env');
  if (dotenvAbove) {
    Object.assign(variables, readDotenv(dotenvAbove));
    files.push(dotenvAbove);
  }
  const jetbrains = new Set<string>();
  const secrets = new Set<string>();
  const take = (s: Record<string, unknown> | undefined, key: string) => {
    for (const [k, v] of Object.entries(s ? section(s[key]) : {})) {
      variables[k] = v;
      if (s === vs) jetbrains.delete(k);
      else jetbrains.add(k);
      if (s === jbPriv || s === vsUser) secrets.add(k);
      else secrets.delete(k);
    }
  };
  for (const s of envFiles) take(s, '$shared');
  if (envName !== undefined) for (const s of envFiles) take(s, envName);
  const clientCertificates: Record<string, ClientCertSpec> = {};
  // VS Code's, relative to the workspace (the folder holding .vscode), under the environments'.
  if (vsCertificates !== undefined) addCertificates({ clientCertificates: vsCertificates }, vscode!, clientCertificates, path.dirname(path.dirname(vscode!)), VSCODE_CERTIFICATES);
  const fileOf = new Map<unknown, string>([[vs, vscode!], [jbPub, pub!], [vsUser, userFile!], [jbPriv, priv!]]);
  for (const key of envName !== undefined ? ['$shared', envName] : ['$shared']) {
    for (const s of envFiles) if (s) addCertificates(s[key], fileOf.get(s)!, clientCertificates);
  }
  const auth: Record<string, EnvAuth> = {};
  for (const key of envName !== undefined ? ['$shared', envName] : ['$shared']) {
    for (const s of [jbPub, vsUser, jbPriv]) if (s) addAuth(s[key], fileOf.get(s)!, auth);
  }
  const envFile = path.join(dir, '.env');
  const dotenv = envFile === dotenvAbove ? readDotenv(envFile) : {};
  return { ...(envName !== undefined ? { name: envName } : {}), variables, jetbrains, secrets, files, available, dotenv, clientCertificates, auth };
}
