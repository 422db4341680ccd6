/** Types of the npm package `auth-header` (1.0.0 ships none): what digest.ts uses. */
declare module 'auth-header' {
  /** One challenge or credentials: `Scheme token` or `Scheme name=value, ...`. */
  export function parse(value: string): { scheme: string; params: Record<string, string | string[]>; token: string | string[] | null };
}
