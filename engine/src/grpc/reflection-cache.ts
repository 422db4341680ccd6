/**
 * Server reflection's answers kept for the calls that follow (issue 41's benchmark: a `sheet
 * run` of 1,000 calls naming no proto asked the server 1,000 times, about 4 ms a call): a
 * service's package definition is kept per channel (call.ts's kept channels: address,
 * credentials, `:authority`), service and loader options, while that channel stays connected.
 *
 * When the server is asked again (docs/http-files.md, "gRPC"):
 * - the channel left READY (the server restarted or went away, the connection went idle): the
 *   next call of any of its services asks again;
 * - a kept definition did not fit a call (no such method, a message the check refuses): that
 *   call asks again at once and uses the server's answer ({@link reflectedService}'s `kept`
 *   tells the caller to, through {@link forgetReflected});
 * - a call ended UNIMPLEMENTED: the next call asks again.
 * A failed reflection is not kept.
 */
import type { Client, Metadata } from '@grpc/grpc-js';
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import { optionsKey } from './protos.js';
import { reflectService } from './reflection.js';

const kept = new WeakMap<Client, Map<string, PackageDefinition>>();

/** grpc-js's `ConnectivityState.READY`, without loading grpc-js for the constant. */
const READY = 2;

/**
 * `service`'s package definition by reflection on `client`'s channel, kept (see the file comment).
 * @returns the definition, and whether it was kept from an earlier call (then a call it does
 *   not fit forgets it and asks again).
 * @throws EngineError as reflection.ts's `reflectService` (`no-reflection`, `unknown-grpc-method`),
 *   and grpc-js's errors of a channel that reached no server (call.ts's `unreachable` says them).
 */
export async function reflectedService(client: Client, service: string, options: Options, metadata: Metadata, deadline?: Date, line?: number): Promise<{ def: PackageDefinition; kept: boolean }> {
  const key = `${service}\n${optionsKey(options)}`;
  const hit = kept.get(client)?.get(key);
  if (hit) return { def: hit, kept: true };
  const def = await reflectService(client, service, options, metadata, deadline, line);
  const channel = client.getChannel();
  // Kept only from a READY channel, and only until it leaves READY.
  if (channel.getConnectivityState(false) !== READY) return { def, kept: false };
  let defs = kept.get(client);
  if (!defs) {
    const these = new Map<string, PackageDefinition>();
    kept.set(client, (defs = these));
    const watch = () =>
      channel.watchConnectivityState(READY, Infinity, () => {
        if (channel.getConnectivityState(false) === READY) watch();
        else if (kept.get(client) === these) kept.delete(client);
      });
    watch();
  }
  defs.set(key, def);
  return { def, kept: false };
}

/** Drop what is kept for `service` on `client`'s channel: the next call asks the server again. */
export function forgetReflected(client: Client, service: string, options: Options): void {
  kept.get(client)?.delete(`${service}\n${optionsKey(options)}`);
}
