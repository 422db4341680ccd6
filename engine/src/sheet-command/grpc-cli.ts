/**
 * `sheet grpc list|describe ADDRESS [SERVICE]` (docs/http-files.md, "gRPC"): grpcurl's verbs over
 * server reflection, to find what to write after `GRPC ADDRESS/`.
 *
 *   sheet grpc list localhost:50051                 the services, one a line
 *   sheet grpc list localhost:50051 demo.Echo       its methods (demo.Echo.Say, ...)
 *   sheet grpc describe grpcs://api:443 [SERVICE]   the services as proto text
 *
 * ADDRESS as on a request line: `host:port` or `grpc://` plain text, `grpcs://` TLS (`-k` /
 * `--insecure`, `--cacert FILE`). Exit status: 0 done, 1 the server could not say (refused, no
 * reflection, unknown service), 2 a usage error.
 */
import { parseArgs } from 'node:util';
import { isEngineError } from '../errors.js';
import { grpcDescribe, grpcList } from '../grpc/explore.js';
import type { Io } from './io.js';

const USAGE = 'sheet grpc list|describe ADDRESS [SERVICE] [-k|--insecure] [--cacert FILE] [--timeout S]';

/** Run `sheet grpc ...`; the exit status. */
export async function grpcCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { insecure: { type: 'boolean', short: 'k' }, cacert: { type: 'string' }, timeout: { type: 'string' } } });
  } catch (e) {
    io.err(`sheet grpc: ${(e as Error).message.split('\n')[0]}\nUsage: ${USAGE}\n`);
    return 2;
  }
  const [verb, address, service, ...extra] = parsed.positionals;
  if ((verb !== 'list' && verb !== 'describe') || !address || extra.length) {
    io.err(`sheet grpc: ${verb !== 'list' && verb !== 'describe' ? (verb ? `unknown subcommand ${verb}` : 'a subcommand is needed') : !address ? 'the server address is needed' : `too many arguments: ${extra.join(' ')}`}\nUsage: ${USAGE}\n`);
    return 2;
  }
  const seconds = parsed.values.timeout === undefined ? 10 : Number(parsed.values.timeout);
  if (!(seconds > 0)) {
    io.err(`sheet grpc: --timeout ${parsed.values.timeout}: a number of seconds\nUsage: ${USAGE}\n`);
    return 2;
  }
  const o = { address, insecure: !!parsed.values.insecure, ...(parsed.values.cacert ? { trust: { caFile: parsed.values.cacert } } : {}), timeoutMs: seconds * 1000 };
  try {
    io.out(`${verb === 'list' ? (await grpcList(o, service)).join('\n') : await grpcDescribe(o, service)}\n`);
    return 0;
  } catch (e) {
    if (!isEngineError(e)) throw e;
    io.err(`sheet grpc ${verb}: ${e.message}\n${e.hint ? `  hint: ${e.hint}\n` : ''}`);
    return 1;
  }
}
