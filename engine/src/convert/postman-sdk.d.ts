// postman-collection's Url and QueryParam modules alone (the package's types name only its index): sheet import
// loads it without the rest of the SDK (postman-url.ts).
declare module 'postman-collection/lib/collection/url.js' {
  export const Url: {
    parse(url: string): Record<string, unknown>;
    prototype: { toString(this: unknown): string };
  };
}
declare module 'postman-collection/lib/collection/query-param.js' {
  export const QueryParam: { parse(query: string): { key: string | null; value: string | null }[] };
}
