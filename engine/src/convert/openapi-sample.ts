/**
 * A minimal instance of a (dereferenced) JSON Schema, for the body of an imported OpenAPI
 * operation when it has no example (docs/import.md, "OpenAPI"): the schema's `example`, else
 * `default`, else `const`, else the first `enum` value, else by type: required properties only
 * (all of them when none is marked required and the object is small), `""` (or a format's
 * typical value), `0`, `false`, `[]` (one item when `minItems` asks for it). `allOf` merged,
 * `oneOf`/`anyOf` their first branch. Cycles end in `{}`. Pure.
 */

type Schema = Record<string, unknown>;

const FORMATS: Record<string, string> = { 'date-time': '1970-01-01T00:00:00Z', date: '1970-01-01', email: 'user@example.com', uuid: '00000000-0000-0000-0000-000000000000', uri: 'https://example.com/', url: 'https://example.com/', ipv4: '127.0.0.1', hostname: 'example.com' };

/** The example value of a media type or parameter: `example`, then the first of `examples`. */
export function exampleOf(o: { example?: unknown; examples?: unknown } | undefined): unknown {
  if (!o) return undefined;
  if (o.example !== undefined) return o.example;
  if (o.examples && typeof o.examples === 'object') {
    const first = Array.isArray(o.examples) ? o.examples[0] : Object.values(o.examples as object)[0];
    if (first && typeof first === 'object' && 'value' in (first as object)) return (first as { value: unknown }).value;
    if (Array.isArray(o.examples)) return first;
  }
  return undefined;
}

/** A minimal instance of `schema` (see the file comment). */
export function sampleOf(schema: unknown, seen: Set<unknown> = new Set()): unknown {
  if (!schema || typeof schema !== 'object') return null;
  const s = schema as Schema;
  if (seen.has(s)) return {};
  for (const k of ['example', 'default', 'const'] as const) if (s[k] !== undefined) return s[k];
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  seen.add(s);
  try {
    if (Array.isArray(s.allOf)) {
      const parts = s.allOf.map((x) => sampleOf(x, seen));
      if (parts.every((p) => p && typeof p === 'object' && !Array.isArray(p))) return Object.assign({}, ...parts);
      return parts[0] ?? null;
    }
    for (const k of ['oneOf', 'anyOf'] as const) if (Array.isArray(s[k]) && (s[k] as unknown[]).length) return sampleOf((s[k] as unknown[])[0], seen);
    const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : s.type;
    if (type === 'object' || (!type && s.properties)) {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const required = Array.isArray(s.required) ? (s.required as string[]) : [];
      const names = required.length ? required : Object.keys(props).length <= 8 ? Object.keys(props) : [];
      const out: Record<string, unknown> = {};
      for (const n of names) out[n] = props[n] ? sampleOf(props[n], seen) : null;
      return out;
    }
    if (type === 'array') {
      const n = typeof s.minItems === 'number' && s.minItems > 0 ? 1 : 0;
      return n ? [sampleOf(s.items, seen)] : [];
    }
    if (type === 'string') return FORMATS[String(s.format)] ?? '';
    if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 0;
    if (type === 'boolean') return false;
    return null;
  } finally {
    seen.delete(s);
  }
}
