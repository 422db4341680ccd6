/**
 * Server reflection (grpc/grpc doc/server-reflection.md): a call's service definition asked of
 * the server when the request names no proto, as JetBrains HTTP Client, kulala.nvim (grpcurl's
 * default) and httpyac's `# @grpc-reflection` do. `grpc.reflection.v1` first, then `v1alpha`
 * (older servers). The reflection messages are declared here in protobufjs' JSON form, so no
 * `.proto` file ships with the bundle; the file descriptors the server sends become a package
 * definition through `@grpc/proto-loader`.
 */
import type { Client, Metadata } from '@grpc/grpc-js';
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import { EngineError } from '../errors.js';

const FIELDS = {
  ServerReflectionRequest: {
    fields: { host: { type: 'string', id: 1 }, fileByFilename: { type: 'string', id: 3 }, fileContainingSymbol: { type: 'string', id: 4 }, listServices: { type: 'string', id: 7 } },
  },
  ServerReflectionResponse: {
    fields: {
      validHost: { type: 'string', id: 1 },
      fileDescriptorResponse: { type: 'FileDescriptorResponse', id: 4 },
      listServicesResponse: { type: 'ListServiceResponse', id: 6 },
      errorResponse: { type: 'ErrorResponse', id: 7 },
    },
  },
  FileDescriptorResponse: { fields: { fileDescriptorProto: { rule: 'repeated', type: 'bytes', id: 1 } } },
  ListServiceResponse: { fields: { service: { rule: 'repeated', type: 'ServiceResponse', id: 1 } } },
  ServiceResponse: { fields: { name: { type: 'string', id: 1 } } },
  ErrorResponse: { fields: { errorCode: { type: 'int32', id: 1 }, errorMessage: { type: 'string', id: 2 } } },
};

interface ReflectionResponse {
  fileDescriptorResponse?: { fileDescriptorProto: Uint8Array[] };
  listServicesResponse?: { service: { name: string }[] };
  errorResponse?: { errorCode: number; errorMessage: string };
}

/** A reflection conversation over one stream: one request, one answer, in turn. */
async function conversation(client: Client, version: 'v1' | 'v1alpha', metadata: Metadata, deadline: Date | undefined) {
  const pb = await import('protobufjs');
  const root = pb.Root.fromJSON({ nested: { r: { nested: FIELDS } } });
  const Req = root.lookupType('r.ServerReflectionRequest');
  const Res = root.lookupType('r.ServerReflectionResponse');
  const call = client.makeBidiStreamRequest(
    `/grpc.reflection.${version}.ServerReflection/ServerReflectionInfo`,
    (o: object) => Buffer.from(Req.encode(Req.fromObject(o)).finish()),
    (b: Buffer) => Res.toObject(Res.decode(b), { defaults: false, arrays: true }) as ReflectionResponse,
    metadata,
    deadline ? { deadline } : {},
  );
  const waiting: { resolve: (r: ReflectionResponse) => void; reject: (e: Error) => void }[] = [];
  let failed: Error | undefined;
  call.on('data', (r: ReflectionResponse) => waiting.shift()?.resolve(r));
  call.on('error', (e: Error) => {
    failed = e;
    for (const w of waiting.splice(0)) w.reject(e);
  });
  call.on('status', () => undefined);
  return {
    ask(req: object): Promise<ReflectionResponse> {
      if (failed) return Promise.reject(failed);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        call.write(req);
      });
    },
    end(): void {
      call.end();
    },
  };
}

/** A conversation on the first reflection version the server offers. */
async function open(client: Client, metadata: Metadata, deadline: Date | undefined, line?: number) {
  for (const version of ['v1', 'v1alpha'] as const) {
    const c = await conversation(client, version, metadata, deadline);
    try {
      const first = await c.ask({ listServices: '' });
      return { c, services: (first.listServicesResponse?.service ?? []).map((s) => s.name) };
    } catch (e) {
      c.end();
      const code = (e as { code?: number }).code;
      if (code === 12 /* UNIMPLEMENTED */) continue;
      throw e;
    }
  }
  throw new EngineError('no-reflection', 'the server offers no reflection (grpc.reflection.v1 and v1alpha are unimplemented), and no proto names the service', { line, hint: 'Name the service\'s proto above the request: proto < ./service.proto (httpyac) or # @grpc-proto ./service.proto (kulala.nvim).' });
}

/** The services the server lists through reflection (`sheet grpc list`, and unknown-service errors). */
export async function reflectServices(client: Client, metadata: Metadata, deadline?: Date, line?: number): Promise<string[]> {
  const { c, services } = await open(client, metadata, deadline, line);
  c.end();
  return services;
}

/**
 * The package definition holding `service`, from the file descriptors the server sends for it
 * and, one by one, the files they import.
 * @throws EngineError `no-reflection` (neither version is offered), `unknown-grpc-method`
 *   naming the services the server lists when it does not know `service`.
 */
export async function reflectService(client: Client, service: string, options: Options, metadata: Metadata, deadline?: Date, line?: number): Promise<PackageDefinition> {
  const { c, services } = await open(client, metadata, deadline, line);
  try {
    if (!services.includes(service)) {
      throw new EngineError('unknown-grpc-method', `the server has no service ${service}`, { line, hint: services.length ? `Its services: ${services.join(', ')}.` : 'It lists no service.', details: { services } });
    }
    const desc = (await import('protobufjs/ext/descriptor/index.js')) as unknown as { FileDescriptorProto: { decode(b: Uint8Array): { name: string; dependency?: string[] } } };
    const files = new Map<string, Uint8Array>();
    const add = (r: ReflectionResponse): string[] => {
      const wanted: string[] = [];
      for (const bytes of r.fileDescriptorResponse?.fileDescriptorProto ?? []) {
        const f = desc.FileDescriptorProto.decode(bytes);
        files.set(f.name, bytes);
        wanted.push(...(f.dependency ?? []));
      }
      return wanted;
    };
    let todo = add(await c.ask({ fileContainingSymbol: service }));
    while (todo.length) {
      const name = todo.shift()!;
      if (files.has(name)) continue;
      const r = await c.ask({ fileByFilename: name });
      if (r.errorResponse) continue; // a well-known type the server does not send: protobufjs has it
      todo.push(...add(r));
    }
    // A FileDescriptorSet is its files as field 1, each length-delimited.
    const parts: Buffer[] = [];
    for (const bytes of files.values()) parts.push(Buffer.from([0x0a]), varint(bytes.length), Buffer.from(bytes));
    const loader = await import('@grpc/proto-loader');
    return loader.loadFileDescriptorSetFromBuffer(Buffer.concat(parts), options);
  } finally {
    c.end();
  }
}

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}
