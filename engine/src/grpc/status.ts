/**
 * gRPC's status codes by name (grpc/grpc doc/statuscodes.md; the names grpcurl and JetBrains
 * HTTP Client print). One home: the transport, the response trailer and `-> expect-grpc-status`
 * read them here. Pure, no grpc-js (whose `Status` enum would load the library at start-up).
 */

/** The names of codes 0..16, in order. */
export const GRPC_STATUS_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE',
  'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED',
] as const;

/** The name of a status code (`5` -> `NOT_FOUND`); an unknown number as `CODE_17`. */
export function grpcStatusName(code: number): string {
  return GRPC_STATUS_NAMES[code] ?? `CODE_${code}`;
}

/**
 * A status written by a person (`OK`, `not_found`, `NotFound`, `5`) as its code, or undefined
 * when it names none.
 */
export function grpcStatusCode(written: string): number | undefined {
  const w = written.trim();
  if (/^\d+$/.test(w)) return Number(w) < GRPC_STATUS_NAMES.length ? Number(w) : undefined;
  const norm = w.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
  const i = (GRPC_STATUS_NAMES as readonly string[]).indexOf(norm);
  return i >= 0 ? i : undefined;
}
