/**
 * Local `$ref`s of an OpenAPI or Swagger document (`#/components/...`, RFC 6901 JSON pointers),
 * resolved on read (docs/import.md, "OpenAPI"): `sheet import` reads a few parts of each
 * operation (parameters, the request body, security schemes), so it resolves only those,
 * where `@apidevtools/swagger-parser`'s `dereference` copied every `$ref` of the document,
 * responses included: most of the time of a 10 MB spec (docs/benchmarks.md, "sheet import").
 * A document with a `$ref` to another file still goes through swagger-parser (openapi.ts).
 *
 * Rules, as json-schema-ref-parser's (swagger-parser's resolver) `dereference`: a `$ref` object
 * reads as its target; one with sibling keys as the target with those keys over it; a chain
 * of `$ref`s is followed; a cycle reads as the same object again (code walking it stops on
 * identity, as `openapi-sample.ts` does). Pure.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a spec's shape is not typed
type Obj = Record<string, any>;

/** Every `$ref` of `doc` once, with the path of its first place, or where one is not local. */
export function collectRefs(doc: unknown): { local: Map<string, string>; external?: { ref: string; where: string } } {
  const local = new Map<string, string>();
  const stack: [unknown, string][] = [[doc, '']];
  while (stack.length) {
    const [node, where] = stack.pop()!;
    if (!node || typeof node !== 'object') continue;
    const ref = (node as Obj).$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) return { local, external: { ref, where } };
      if (!local.has(ref)) local.set(ref, where);
    }
    if (Array.isArray(node)) for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${where}[${i}]`]);
    else for (const k of Object.keys(node)) if (k !== '$ref') stack.push([(node as Obj)[k], where ? `${where}.${k}` : k]);
  }
  return { local };
}

/** The target of the local pointer `ref` (`#/a/b~1c`) in `doc`, or undefined when it names nothing. */
export function pointerTarget(doc: unknown, ref: string): unknown {
  let cur: unknown = doc;
  const body = ref.slice(1);
  if (!body) return doc;
  for (const raw of body.replace(/^\//, '').split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!cur || typeof cur !== 'object' || !Object.prototype.hasOwnProperty.call(cur, token)) return undefined;
    cur = (cur as Obj)[token];
  }
  return cur;
}

/**
 * `doc` read with its local `$ref`s resolved (see the file comment): a view, not a copy; the
 * same object always reads as the same view. Check first with `collectRefs` and `pointerTarget`
 * that every `$ref` resolves: a dangling one here reads as the `$ref` object itself.
 */
export function resolvedView(doc: Obj): Obj {
  const views = new WeakMap<object, Obj>();
  const merged = new WeakMap<object, object>();
  const target = (o: object): object => {
    if (typeof (o as Obj).$ref !== 'string') return o;
    const seen = new Set<object>();
    let cur = o;
    while (typeof (cur as Obj).$ref === 'string' && !seen.has(cur)) {
      seen.add(cur);
      const t = pointerTarget(doc, (cur as Obj).$ref);
      if (!t || typeof t !== 'object') return cur;
      if (Object.keys(cur).length > 1) {
        let m = merged.get(cur);
        if (!m) {
          const { $ref: _ref, ...siblings } = cur as Obj;
          m = Object.assign(Array.isArray(t) ? [...t] : { ...(t as Obj) }, siblings);
          merged.set(cur, m);
        }
        return m;
      }
      cur = t;
    }
    return cur;
  };
  const view = (o: object): Obj => {
    let v = views.get(o);
    if (v) return v;
    const t = target(o);
    v = views.get(t);
    if (!v) {
      v = new Proxy(t as Obj, {
        get(obj, key, receiver) {
          const value = Reflect.get(obj, key, receiver);
          return value && typeof value === 'object' ? view(value) : value;
        },
      });
      views.set(t, v);
    }
    views.set(o, v);
    return v;
  };
  return view(doc);
}
