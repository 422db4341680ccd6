/**
 * The services and methods a `GRPC` request can name, for completion in an editor
 * (`sheet/grpcMethods`, docs/protocol.md): from the request's proto lines (protos.ts), else by
 * server reflection (reflection.ts, through explore.ts's channel). Kept per address and protos
 * for the engine's life, so only the first look-up of a target pays for the protos or the
 * reflection round trips; a failed look-up is not kept (the next one tries again).
 */
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { DEFAULT_LOADER_OPTIONS, loadProtos, loaderOptions, type LoaderOptionLine, type ProtoSource } from './protos.js';
import { reflectService, reflectServices } from './reflection.js';
import { guarded } from './explore.js';

/** One service and its methods, as a request line names them (`demo.Echo`, `Say`). */
export interface CatalogService {
  name: string;
  methods: { name: string; kind: 'unary' | 'server-streaming' | 'client-streaming' | 'bidi-streaming' }[];
}

/** Where to look: the address as written after `GRPC` (`host:port`, `grpc://`, `grpcs://`) and the request's proto lines. */
export interface CatalogInput {
  address: string;
  protos: ProtoSource[];
  importPaths: ProtoSource[];
  options: LoaderOptionLine[];
  /** Where relative proto paths start. */
  baseDir: string;
}

/** How long reflection may take before completion gives up, ms. */
export const CATALOG_TIMEOUT_MS = 5000;

const kept = new Map<string, Promise<CatalogService[]>>();

/**
 * The services (sorted) and their methods (in proto order).
 * @throws EngineError `bad-proto`, `file-unreadable` (the protos), `no-reflection`,
 *   `connection-refused`, `unknown-host`, `network-error` (no proto and no gRPC server there).
 */
export function grpcCatalog(i: CatalogInput): Promise<CatalogService[]> {
  const key = JSON.stringify(i.protos.length ? [i.baseDir, i.protos, i.importPaths, i.options] : [i.address]);
  let c = kept.get(key);
  if (!c) {
    c = lookUp(i);
    kept.set(key, c);
    c.catch(() => kept.delete(key));
  }
  return c;
}

async function lookUp(i: CatalogInput): Promise<CatalogService[]> {
  if (i.protos.length) {
    const def = await loadProtos(i.protos, loaderOptions(i.options, i.importPaths, i.baseDir), i.baseDir);
    return Object.keys(def).filter((k) => isService(def[k])).sort().map((k) => serviceOf(def, k));
  }
  return guarded({ address: i.address, timeoutMs: CATALOG_TIMEOUT_MS }, async ({ client }, md, deadline) => {
    const names = (await reflectServices(client, md, deadline)).filter((s) => !s.startsWith('grpc.reflection.')).sort();
    const out: CatalogService[] = [];
    for (const s of names) out.push(serviceOf(await reflectService(client, s, DEFAULT_LOADER_OPTIONS, md, deadline), s));
    return out;
  });
}

function isService(x: unknown): boolean {
  return typeof x === 'object' && x !== null && !('format' in x);
}

/** `name`'s methods as declared (proto-loader's lowerCamelCase aliases left out). */
function serviceOf(def: PackageDefinition, name: string): CatalogService {
  const methods = def[name] as Record<string, MethodDefinition<object, object>>;
  return {
    name,
    methods: Object.entries(methods)
      .filter(([k, m]) => m.path.endsWith(`/${k}`))
      .map(([k, m]) => ({ name: k, kind: m.requestStream ? (m.responseStream ? 'bidi-streaming' : 'client-streaming') : m.responseStream ? 'server-streaming' : 'unary' })),
  };
}
