/**
 * grpcurl's `list` and `describe` over server reflection (`sheet grpc list|describe ADDRESS
 * [SERVICE]`, docs/http-files.md "gRPC"): the services a server offers, a service's methods with
 * their message types and streaming, as grpcurl prints them.
 */
import type { MethodDefinition, PackageDefinition } from '@grpc/proto-loader';
import { isEngineError } from '../errors.js';
import type { TrustOptions } from '../http/trust.js';
import { clientFor, grpcJs, unreachable } from './call.js';
import { DEFAULT_LOADER_OPTIONS } from './protos.js';
import { reflectService, reflectServices } from './reflection.js';
import { grpcTarget } from './target.js';

/** Where and how to connect: `host:port` or `grpc://` plain text, `grpcs://` TLS. */
export interface ExploreInput {
  address: string;
  insecure?: boolean;
  trust?: TrustOptions;
  /** The deadline of each reflection call, ms. */
  timeoutMs?: number;
}

/** The kept channel to `o.address` (any method path: `/s/m`). */
function connect(grpc: Awaited<ReturnType<typeof grpcJs>>, o: ExploreInput) {
  const written = o.address.replace(/^grpc:\/\//i, 'http://').replace(/^grpcs:\/\//i, 'https://');
  const url = `${/^https?:\/\//.test(written) ? written : `http://${written}`}`.replace(/\/+$/, '') + '/s/m';
  const target = grpcTarget(url);
  return { target, client: clientFor(grpc, { url, insecure: o.insecure, trust: o.trust }, target) };
}

/** `fn` on the channel to `o.address`, with its deadline; a failure to reach a gRPC server as `unreachable` says it. */
export async function guarded<T>(o: ExploreInput, fn: (c: ReturnType<typeof connect>, md: import('@grpc/grpc-js').Metadata, deadline?: Date) => Promise<T>): Promise<T> {
  const grpc = await grpcJs();
  const c = connect(grpc, o);
  try {
    return await fn(c, new grpc.Metadata(), o.timeoutMs ? new Date(Date.now() + o.timeoutMs) : undefined);
  } catch (e) {
    throw isEngineError(e) ? e : unreachable(e as Error & { code?: number; details?: string }, c.target);
  }
}

/**
 * The services the server offers (no `service`), or the methods of `service`, one name a line's
 * worth each, as `grpcurl list`: `demo.Echo`, `demo.Echo.Say`.
 * @throws EngineError `no-reflection`, `unknown-grpc-method`, `connection-refused`, `network-error`.
 */
export async function grpcList(o: ExploreInput, service?: string): Promise<string[]> {
  return guarded(o, async ({ client }, md, deadline) => {
    if (!service) return (await reflectServices(client, md, deadline)).sort();
    const def = await reflectService(client, service, DEFAULT_LOADER_OPTIONS, md, deadline);
    const methods = def[service] as Record<string, MethodDefinition<object, object>>;
    return Object.keys(methods).filter((k) => methods[k]!.path.endsWith(`/${k}`)).map((k) => `${service}.${k}`);
  });
}

/**
 * The services (or `service`) as proto text, as `grpcurl describe` prints them:
 * `service demo.Echo {` then `  rpc Count ( .demo.CountRequest ) returns ( stream .demo.Reply );`.
 * @throws EngineError as {@link grpcList}.
 */
export async function grpcDescribe(o: ExploreInput, service?: string): Promise<string> {
  return guarded(o, async ({ client }, md, deadline) => {
    const services = service ? [service] : (await reflectServices(client, md, deadline)).sort();
    const out: string[] = [];
    for (const s of services) {
      const def = await reflectService(client, s, DEFAULT_LOADER_OPTIONS, md, deadline);
      out.push(`${s} is a service:`, `service ${s.split('.').pop()} {`);
      const methods = def[s] as Record<string, MethodDefinition<object, object>>;
      for (const [name, m] of Object.entries(methods)) {
        if (!m.path.endsWith(`/${name}`)) continue; // proto-loader's lowerCamelCase aliases
        out.push(`  rpc ${name} ( ${m.requestStream ? 'stream ' : ''}.${typeName(def, m.requestType, s)} ) returns ( ${m.responseStream ? 'stream ' : ''}.${typeName(def, m.responseType, s)} );`);
      }
      out.push('}');
    }
    return out.join('\n');
  });
}

/** A message type's full name: the service's package first, then any package that has it. */
function typeName(def: PackageDefinition, t: unknown, service: string): string {
  const name = (t as { type?: { name?: string } }).type?.name ?? '?';
  const pkg = service.split('.').slice(0, -1).join('.');
  const own = pkg ? `${pkg}.${name}` : name;
  return own in def ? own : Object.keys(def).find((k) => k.endsWith(`.${name}`)) ?? name;
}
