/**
 * Where a gRPC call goes, from its request URL: JetBrains HTTP Client's and httpyac's
 * `GRPC host:port/package.Service/Method` (the parsers have made it `http://...`, or
 * `https://...` for `grpcs://`). Pure.
 */
import { EngineError } from '../errors.js';

/** A call's target: the channel's address, whether it is TLS, the full service and method names. */
export interface GrpcTarget {
  /** `host:port` for grpc-js (port 443 for TLS, 80 for plain text when the URL has none). */
  address: string;
  tls: boolean;
  /** The fully qualified service, e.g. `routeguide.RouteGuide`. */
  service: string;
  method: string;
}

/**
 * Split a resolved gRPC URL.
 * @param url `http://host:port/pkg.Service/Method` (plain text) or `https://...` (TLS).
 * @param line the request line, for errors.
 * @throws EngineError `invalid-url` when the path is not `/Service/Method`.
 */
export function grpcTarget(url: string, line?: number): GrpcTarget {
  // A run's calls name the same few targets: each URL is split once.
  const hit = kept.get(url);
  if (hit) return { ...hit };
  const t = split(url, line);
  if (kept.size >= 256) kept.clear();
  kept.set(url, t);
  return { ...t };
}

const kept = new Map<string, GrpcTarget>();

function split(url: string, line?: number): GrpcTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new EngineError('invalid-url', `not a gRPC address: ${url}`, { line, hint: 'Write GRPC host:port/package.Service/Method (grpcs:// for TLS).' });
  }
  const parts = u.pathname.split('/').filter((p) => p !== '');
  if (parts.length !== 2 || u.search) {
    throw new EngineError('invalid-url', `${url}: a gRPC request names /package.Service/Method after the host and nothing else`, { line, hint: 'Write GRPC host:port/package.Service/Method, e.g. GRPC localhost:50051/helloworld.Greeter/SayHello.' });
  }
  const tls = u.protocol === 'https:';
  const port = u.port || (tls ? '443' : '80');
  return { address: `${u.hostname}:${port}`, tls, service: decodeURIComponent(parts[0]!), method: decodeURIComponent(parts[1]!) };
}
