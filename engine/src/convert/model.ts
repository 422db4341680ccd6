/**
 * What an importer (Postman, HAR, OpenAPI) produces before it is written: requests in the
 * `.http` model (JetBrains HTTP Client's, which carries the most: environments, handlers,
 * `Security.Auth`), environment files, and one warning per thing that could not be carried.
 * `write-http.ts` writes it; `sheet-command/import-cli.ts` puts it on disk. Source of the
 * target syntax: docs/http-files.md; of the decisions per format: docs/import.md.
 */

/** Something of the source that the import could not carry, and where it was. */
export interface ImportWarning {
  /** Where, as a person finds it in the source: `item "Folder / Login"`, `entries[3]`, `paths./users.get`. */
  where: string;
  message: string;
  /** For a source that is a folder (Bruno): the file inside it, `/`-separated (then `where` may be empty). */
  file?: string;
  /** The 1-based line in that file, where known. */
  line?: number;
}

/** A header line; `disabled` ones are written as comment lines (`# Name: value`). */
export interface ImportedHeader {
  name: string;
  value: string;
  disabled?: boolean;
  /** Its description in the source (Bruno's `@description`), written as comment lines above it. */
  comment?: string;
}

/** A form field (urlencoded) or a multipart part; `file` is a path written as `< path`. */
export interface ImportedField {
  name: string;
  value?: string;
  file?: string;
  contentType?: string;
  disabled?: boolean;
}

/** Every body kind an importer meets (the Content-Type goes in the headers). */
export type ImportedBody =
  | { kind: 'raw'; text: string }
  | { kind: 'urlencoded'; fields: ImportedField[] }
  | { kind: 'multipart'; fields: ImportedField[] }
  | { kind: 'graphql'; query: string; variables?: string }
  | { kind: 'file'; path: string };

/** One request, as it will be written in a `.http` file. */
export interface ImportedRequest {
  /** Its name in the source (`Login`); `write-http.ts` makes the `# @name` identifier of it. */
  name: string;
  /** The folders above it, outermost first (Postman folders, OpenAPI tags). */
  folder: string[];
  /** Comment lines written above the request line (descriptions, disabled query parameters, scripts not converted). */
  comments: string[];
  method: string;
  /** The URL as written, `{{name}}` references kept. */
  url: string;
  headers: ImportedHeader[];
  body?: ImportedBody;
  /** JavaScript of a JetBrains pre-request script (`< {% %}`), already converted. */
  preScript?: string;
  /** JavaScript of a JetBrains response handler (`> {% %}`), already converted. */
  handler?: string;
}

/** Environment files' contents: environment name (`$shared` too) -> variables (and `Security`). */
export type EnvFile = Record<string, Record<string, unknown>>;

/** One `.http` file to write. */
export interface ImportedFile {
  /** Relative to the output directory, `/`-separated, ends in `.http`. */
  path: string;
  /** File variables (`@name = value`) written at the top, in order. */
  vars: [string, string][];
  /** Comment lines at the top (what was imported, from where). */
  header: string[];
  requests: ImportedRequest[];
}

/** What an importer hands to the writer. */
export interface ImportResult {
  /** The format read, for the report: `Postman collection v2.1`, `HAR 1.2`, `OpenAPI 3.0.3`. */
  format: string;
  files: ImportedFile[];
  /** http-client.env.json. */
  env: EnvFile;
  /** http-client.private.env.json: secrets (Postman `secret` values, passwords, tokens, keys). */
  privateEnv: EnvFile;
  warnings: ImportWarning[];
}

/** An empty result of `format`. */
export function emptyResult(format: string): ImportResult {
  return { format, files: [], env: {}, privateEnv: {}, warnings: [] };
}

/** Set `env[envName][name] = value`, creating the environment. */
export function setEnv(env: EnvFile, envName: string, name: string, value: unknown): void {
  (env[envName] ??= {})[name] = value;
}
