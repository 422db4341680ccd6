/**
 * One gRPC call with `@grpc/grpc-js` (loaded at first use): the four call kinds (unary, server
 * streaming, client streaming, bidirectional), request messages from JSON, response messages
 * as plain objects in the order they came, metadata both ways, the status and its trailers.
 * The service definition comes from proto files (protos.ts) or server reflection
 * (reflection.ts). Channels are kept per address and credentials, so a `sheet run` of many calls
 * connects once (as a grpc-js script that keeps its client).
 */
import type { ChannelCredentials, Client, Metadata } from '@grpc/grpc-js';
import type { MethodDefinition, Options, PackageDefinition } from '@grpc/proto-loader';
import type { Header } from '../model.js';
import { EngineError, isEngineError } from '../errors.js';
import type { StreamStep } from '../sheet/stream-messages.js';
import { chooseTrust, type TrustOptions } from '../http/trust.js';
import { chooseClientCert, type ClientCertOptions } from '../http/client-cert.js';
import { grpcTarget, type GrpcTarget } from './target.js';
import { keptProtos, loadProtos, loaderOptions, type LoaderOptionLine, type ProtoSource } from './protos.js';
import { reflectServices } from './reflection.js';
import { forgetReflected, reflectedService } from './reflection-cache.js';
import { checkMessage } from './message-check.js';

/** What a call needs: where, what, with which messages and connection. */
export interface GrpcCallInput {
  /** `http://host:port/pkg.Service/Method` (plain text) or `https://...` (TLS): target.ts. */
  url: string;
  /** The request line, for errors. */
  line?: number;
  /** Header lines: the call's metadata (`-bin` names: base64 values sent as bytes). */
  metadata: Header[];
  /** The request messages and waits (../sheet/stream-messages.ts); none for an empty message. */
  steps: StreamStep[];
  /** `proto < file` / `# @grpc-proto` sources; none: server reflection. */
  protos: ProtoSource[];
  importPaths: ProtoSource[];
  options: LoaderOptionLine[];
  /** Where relative proto paths start: the directory of the file that names them. */
  baseDir: string;
  /** The deadline, ms from the start of the call; 0 or absent: none. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** TLS: `-k`, the CA files, the client certificate (the HTTP side's connection settings). */
  insecure?: boolean;
  trust?: TrustOptions;
  clientCert?: ClientCertOptions;
  /** `:authority` (kulala's `# @grpc-authority`): the channel's default authority. */
  authority?: string;
  /** Each response message as it arrives (streams), already as a plain object. */
  onMessage?: (message: unknown) => void;
  /**
   * Server-streaming and bidirectional calls: told the call's kind and the response metadata
   * before the first message (at the metadata, or at the first message when none came). Given,
   * a cancel (`signal`) after that is a result with status `CANCELLED` and the messages so far,
   * not an error: a stream keeps what came.
   */
  onStreamStart?: (kind: 'server-streaming' | 'bidi-streaming', headers: Header[]) => void;
}

/** A call's outcome: the status (any, OK or not), what came back, and when. */
export interface GrpcResult {
  target: GrpcTarget;
  kind: 'unary' | 'server-streaming' | 'client-streaming' | 'bidi-streaming';
  /** gRPC status code (0 OK) and its message. */
  code: number;
  details: string;
  /** The response's initial metadata, then its trailers, as header lines. */
  headers: Header[];
  trailers: Header[];
  /** Response messages in order (proto-loader's objects: the JSON mapping by default). */
  messages: unknown[];
  durationMs: number;
}

type Grpc = typeof import('@grpc/grpc-js');
const clients = new Map<string, Client>();

let loaded: Promise<Grpc> | undefined;
/** The module once loaded: a call takes it without an await. */
let grpcModule: Grpc | undefined;

/**
 * `@grpc/grpc-js`, loaded at first use and kept: the bundle's `import()` wraps the module anew
 * each time (esbuild's `__toESM` copies every export), which was a per-call cost of `sheet run`.
 */
export function grpcJs(): Promise<Grpc> {
  return (loaded ??= import('@grpc/grpc-js').then((m) => (grpcModule = m)));
}

/**
 * The channel's credentials: plain text, or TLS with the CA files, client certificate and `-k`;
 * `make` builds them (only a new channel needs them), `key` tells kept channels apart.
 */
function credentialsFor(grpc: Grpc, i: Pick<GrpcCallInput, 'url' | 'insecure' | 'trust' | 'clientCert'>, target: GrpcTarget): { make: () => ChannelCredentials; key: string } {
  if (!target.tls) return { make: () => grpc.credentials.createInsecure(), key: 'plain' };
  const trust = i.insecure ? undefined : chooseTrust(i.trust);
  const identity = chooseClientCert(new URL(i.url), i.clientCert);
  const make = () => grpc.credentials.createSsl(trust ? Buffer.from(trust.ca.join('\n')) : null, identity ? Buffer.from(identity.tls.key) : null, identity ? Buffer.from(identity.tls.cert) : null, i.insecure ? { rejectUnauthorized: false, checkServerIdentity: () => undefined } : {});
  return { make, key: `tls ${trust?.key ?? ''} ${identity?.key ?? ''} ${i.insecure ? 'k' : ''}` };
}

/** The kept channel to `target` with `i`'s credentials (made on first use). */
export function clientFor(grpc: Grpc, i: Pick<GrpcCallInput, 'url' | 'insecure' | 'trust' | 'clientCert' | 'authority'>, target: GrpcTarget): Client {
  const { make, key } = credentialsFor(grpc, i, target);
  const k = `${target.address} ${key} ${i.authority ?? ''}`;
  let c = clients.get(k);
  if (!c) {
    c = new grpc.Client(target.address, make(), i.authority ? { 'grpc.default_authority': i.authority } : {});
    clients.set(k, c);
  }
  return c;
}

/** Close every kept channel (tests, and a `sheet run` that is done). */
export function closeGrpcClients(): void {
  for (const c of clients.values()) c.close();
  clients.clear();
}

function metadataOf(grpc: Grpc, headers: Header[]): Metadata {
  const md = new grpc.Metadata();
  for (const [name, value] of headers) {
    const n = name.toLowerCase();
    // JetBrains: a Content-Type line is there for the editor's highlighting only.
    if (n === 'content-type') continue;
    md.add(n, n.endsWith('-bin') ? Buffer.from(value, 'base64') : value);
  }
  return md;
}

function headersOf(md: Metadata | undefined): Header[] {
  if (!md) return [];
  const out: Header[] = [];
  for (const [n, v] of Object.entries(md.toJSON())) for (const x of v) out.push([n, Buffer.isBuffer(x) ? x.toString('base64') : String(x)]);
  return out;
}

function isService(x: unknown): x is Record<string, MethodDefinition<object, object>> {
  return typeof x === 'object' && x !== null && !('format' in x);
}

/** The method of `target` in `def`, or an error listing what exists. */
function methodOf(def: PackageDefinition, target: GrpcTarget, line?: number): MethodDefinition<object, object> {
  const svc = def[target.service];
  if (!isService(svc)) {
    const services = Object.entries(def).filter(([, v]) => isService(v)).map(([k]) => k);
    throw new EngineError('unknown-grpc-method', `no service ${target.service} in the proto`, { line, hint: services.length ? `Its services: ${services.join(', ')}.` : 'The proto declares no service.', details: { services } });
  }
  const m = svc[target.method] ?? Object.values(svc).find((x) => x.originalName === target.method);
  if (!m) {
    const names = Object.keys(svc).filter((k) => svc[k]!.path.endsWith(`/${k}`));
    throw new EngineError('unknown-grpc-method', `service ${target.service} has no method ${target.method}`, { line, hint: `Its methods: ${names.join(', ')}.`, details: { methods: names } });
  }
  return m;
}

/** What a call sends, from its method's definition: the method, its kind, the messages checked and encoded. */
interface Prepared {
  m: MethodDefinition<object, object>;
  kind: GrpcResult['kind'];
  encoded: { object: object }[];
  /** Each message's bytes from its check, so it is serialized once. */
  bytes: Map<object, Buffer>;
}

/**
 * The method of `target` in `def` and the request messages checked against it.
 * @throws EngineError `unknown-grpc-method`, `bad-grpc-message` (several messages or a
 *   `=== wait-for-server` the method's kind does not take, a message that does not fit).
 */
function prepare(def: PackageDefinition, target: GrpcTarget, i: GrpcCallInput, options: Options): Prepared {
  const m = methodOf(def, target, i.line);
  const kind = m.requestStream ? (m.responseStream ? 'bidi-streaming' : 'client-streaming') : m.responseStream ? 'server-streaming' : 'unary';
  const sends = i.steps.filter((s): s is Extract<StreamStep, { kind: 'send' }> => s.kind === 'send');
  if (!m.requestStream && sends.length > 1) {
    throw new EngineError('bad-grpc-message', `${target.service}/${target.method} takes one request message, and the body has ${sends.length} (=== lines)`, { line: sends[1]!.line, hint: 'Remove the === lines: only client-streaming and bidirectional methods take several messages.' });
  }
  const wait = i.steps.find((s) => s.kind === 'wait');
  if (wait && kind !== 'bidi-streaming') {
    throw new EngineError('bad-grpc-message', `=== wait-for-server: ${target.service}/${target.method} is ${kind}, so the server sends nothing until the request messages end`, { line: wait.line, hint: 'Use === wait-for-server with bidirectional methods only; write === between messages.' });
  }
  // Each message checked and encoded before anything is sent; its bytes kept from the check.
  const bytes = new Map<object, Buffer>();
  const encoded: { object: object }[] = sends.map((s) => ({ object: checkMessage(s.text, m, options, s.line, def, (o, b) => bytes.set(o, b)) }));
  if (!sends.length) encoded.push({ object: {} });
  return { m, kind, encoded, bytes };
}

/**
 * Make one call and wait for its status.
 * @returns the status (a non-OK status is a result, not an error), metadata, trailers, messages.
 * @throws EngineError `bad-proto`, `file-unreadable`, `bad-argument` (the proto and its options),
 *   `no-reflection`, `unknown-grpc-method`, `bad-grpc-message` (a message that does not fit,
 *   naming the field and the message's line), `connection-refused` / `network-error` (nothing
 *   or no gRPC server answered), `cancelled`, `bad-ca-file`, `bad-client-cert`.
 */
export async function grpcCall(i: GrpcCallInput): Promise<GrpcResult> {
  const target = grpcTarget(i.url, i.line);
  const grpc = grpcModule ?? (await grpcJs());
  const startedAt = performance.now();
  const client = clientFor(grpc, i, target);
  const options = loaderOptions(i.options, i.importPaths, i.baseDir);
  const deadline = i.timeoutMs ? new Date(Date.now() + i.timeoutMs) : undefined;
  const md = metadataOf(grpc, i.metadata);
  const reflect = () => reflectedService(client, target.service, options, md, deadline, i.line);
  const reached = (e: unknown) => (isEngineError(e) ? e : unreachable(e as Error & { code?: number; details?: string }, target, i.line));
  let got: { def: PackageDefinition; kept: boolean };
  try {
    got = i.protos.length ? { def: keptProtos(i.protos, options, i.baseDir) ?? (await loadProtos(i.protos, options, i.baseDir)), kept: false } : await reflect();
  } catch (e) {
    throw reached(e);
  }
  let prepared: Prepared;
  try {
    prepared = prepare(got.def, target, i, options);
  } catch (e) {
    // A kept reflection answer that does not fit: the server may have changed; ask it again.
    if (!got.kept) throw e;
    forgetReflected(client, target.service, options);
    try {
      got = await reflect();
    } catch (e2) {
      throw reached(e2);
    }
    prepared = prepare(got.def, target, i, options);
  }
  const { m, kind, encoded, bytes } = prepared;
  const result: GrpcResult = { target, kind, code: 0, details: '', headers: [], trailers: [], messages: [], durationMs: 0 };
  let gotHeaders = false;
  const streaming = kind === 'server-streaming' || kind === 'bidi-streaming' ? kind : undefined;
  let started = false;
  const start = () => {
    if (streaming && !started) {
      started = true;
      i.onStreamStart?.(streaming, result.headers);
    }
  };
  const opts = deadline ? { deadline } : {};
  const ser = (o: object) => bytes.get(o) ?? m.requestSerialize(o);
  const de = (b: Buffer) => m.responseDeserialize(b);
  let ended = false;
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  const done = new Promise<void>((resolve) => {
    const onMessage = (x: unknown) => {
      start();
      result.messages.push(x);
      i.onMessage?.(x);
      wake();
    };
    const cb = (_e: unknown, x?: object) => {
      if (x !== undefined) onMessage(x);
    };
    const first = encoded[0]!.object;
    const call =
      kind === 'unary' ? client.makeUnaryRequest(m.path, ser, de, first, md, opts, cb)
      : kind === 'client-streaming' ? client.makeClientStreamRequest(m.path, ser, de, md, opts, cb)
      : kind === 'server-streaming' ? client.makeServerStreamRequest(m.path, ser, de, first, md, opts)
      : client.makeBidiStreamRequest(m.path, ser, de, md, opts);
    call.on('metadata', (h: Metadata) => {
      gotHeaders = true;
      result.headers = headersOf(h);
      start();
    });
    call.on('status', (st: { code: number; details: string; metadata: Metadata }) => {
      result.code = st.code;
      result.details = st.details;
      result.trailers = headersOf(st.metadata);
      ended = true;
      wake();
      resolve();
    });
    // A non-OK status also comes as an 'error' event on streams; the status says it all.
    call.on('error', () => undefined);
    if (kind === 'server-streaming' || kind === 'bidi-streaming') call.on('data', onMessage);
    i.signal?.addEventListener('abort', () => call.cancel(), { once: true });
    if (kind === 'client-streaming' || kind === 'bidi-streaming') void writeSteps(call as unknown as Writable, i.steps, encoded.map((e) => e.object));
  });
  type Writable = { write(o: object): unknown; end(): unknown };
  /** The messages in order; `=== wait-for-server` waits for one more server message than before. */
  async function writeSteps(w: Writable, steps: StreamStep[], objects: object[]): Promise<void> {
    let sent = 0;
    let waited = 0;
    for (const s of steps) {
      if (ended) return;
      if (s.kind === 'send') w.write(objects[sent++]!);
      else {
        waited++;
        while (result.messages.length < waited && !ended) await new Promise<void>((r) => waiters.push(r));
      }
    }
    if (!ended) w.end();
  }
  await done;
  result.durationMs = performance.now() - startedAt;
  // UNIMPLEMENTED from a server whose reflection named the method: ask it again next time.
  if (result.code === 12 && !i.protos.length) forgetReflected(client, target.service, options);
  // A stream that had begun keeps what came (grpc-js gave it the status CANCELLED).
  if (i.signal?.aborted && !(started && i.onStreamStart)) throw new EngineError('cancelled', 'the gRPC call was cancelled', { line: i.line });
  if (!gotHeaders && result.code !== 0 && [2, 13, 14].includes(result.code)) throw unreachable({ code: result.code, details: result.details, message: result.details, name: 'Error' }, target, i.line);
  return result;
}

/** A call that reached no gRPC server: refused, or something else answered. */
export function unreachable(e: { code?: number; details?: string; message: string; name: string }, target: GrpcTarget, line?: number): EngineError {
  const d = e.details ?? e.message;
  if (/ECONNREFUSED/.test(d)) return new EngineError('connection-refused', `nothing listens on ${target.address} (${d})`, { line, hint: 'Is the gRPC server running, and on that port?', details: { curlExit: 7 } });
  if (/ENOTFOUND|EAI_AGAIN/.test(d)) return new EngineError('unknown-host', `${target.address}: the host is not known (${d})`, { line, hint: 'Check the host name.', details: { curlExit: 6 } });
  if (target.tls && /certificate|self[- ]signed|unable to verify|CERT_/i.test(d)) {
    return new EngineError('tls-error', `${target.address}: the server's TLS certificate is not trusted: ${d}`, { line, hint: 'Give its CA with # @cacert FILE (or the caFile setting, CURL_CA_BUNDLE), or # @insecure to skip the check.', details: { curlExit: 60 } });
  }
  return new EngineError('network-error', `${target.address} did not answer as a gRPC server${target.tls ? ' over TLS' : ' in plain text'}: ${d}`, { line, hint: target.tls ? 'Is it a gRPC server with TLS? Write grpc:// (plain text) for one without.' : 'Is it a gRPC server? For one with TLS write grpcs://.', details: { curlExit: 56 } });
}

export { reflectServices };
