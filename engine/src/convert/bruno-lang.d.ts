// @usebruno/lang (Bruno's own .bru parser, MIT) ships no types: the three parsers sheet import uses
// (convert/bruno.ts). Each throws an Error whose message starts `Line N, col M:` on a syntax error.
declare module '@usebruno/lang' {
  /** A request `.bru` file -> `{meta, http, params, headers, auth, body, script, vars, assertions, tests, docs, settings}`. */
  export function bruToJsonV2(text: string): Record<string, unknown>;
  /** An `environments/NAME.bru` file -> `{variables: [{name, value, enabled, secret}]}`. */
  export function bruToEnvJsonV2(text: string): { variables?: { name: string; value: unknown; enabled?: boolean; secret?: boolean }[] };
  /** `collection.bru` or `folder.bru` -> `{meta, headers, auth: {mode, ...}, vars, script, tests, docs}`. */
  export function collectionBruToJson(text: string): Record<string, unknown>;
}
