/**
 * The lines of a gRPC request, read the same way by both parsers (sheets and `.http` files):
 * the request line `GRPC host:port/package.Service/Method` (JetBrains HTTP Client, httpyac;
 * `grpc://` plain text, `grpcs://` TLS; kulala.nvim's grpcurl order `host package.Service/Method`
 * too), httpyac's `proto < ./file.proto` line with proto-loader's option lines below it
 * (`keepCase: true`, `includeDirs: ["./protos"]`, ...), and kulala.nvim's `# @grpc-proto FILE`,
 * `# @grpc-import-path DIR`, `# @grpc-authority NAME` directives. docs/http-files.md, "gRPC".
 *
 * Pure; never throws.
 */
import type { Directive, GrpcNode } from './ast.js';

/** The request line's method word of a gRPC call. */
export const GRPC_METHOD = 'GRPC';

/** The `# @...` directives of gRPC requests (kulala.nvim's names; httpyac's `grpc-reflection`). */
export const GRPC_DIRECTIVES = ['grpc-proto', 'grpc-import-path', 'grpc-authority', 'grpc-reflection'] as const;

/** httpyac's `proto < ./file.proto`. */
const PROTO_LINE = /^[ \t]*proto[ \t]*<[ \t]*(\S.*?)[ \t]*$/;
/** proto-loader's options, one a line below a proto line (httpyac). */
const OPTION_LINE = /^[ \t]*(keepCase|longs|enums|bytes|defaults|arrays|objects|oneofs|json|includeDirs)[ \t]*:[ \t]*(.*?)[ \t]*$/;

/** An empty set of gRPC lines. */
export function emptyGrpc(): GrpcNode {
  return { protos: [], importPaths: [], options: [] };
}

/**
 * Read line `text` (1-based `line`) into `acc` when it is a proto line, or an option line after
 * one (`afterProto`).
 * @returns what the line was, or undefined when it is neither.
 */
export function readProtoLine(text: string, line: number, acc: GrpcNode, afterProto: boolean): 'proto' | 'option' | undefined {
  const p = PROTO_LINE.exec(text);
  if (p) {
    acc.protos.push({ file: p[1]!, line });
    return 'proto';
  }
  const o = afterProto ? OPTION_LINE.exec(text) : null;
  if (o) {
    acc.options.push({ name: o[1]!, value: o[2]!, line });
    return 'option';
  }
  return undefined;
}

/**
 * A gRPC request line's target as the resolvers read URLs: `grpc://` -> `http://`, `grpcs://`
 * -> `https://`, kulala's `host pkg.Service/Method` joined with `/`.
 * @param addScheme put `http://` in front of a target without a scheme (sheets, whose URLs are
 *   absolute; a `.http` file's resolver does it itself, after `{{host}}` is substituted).
 */
export function grpcUrl(written: string, addScheme: boolean): string {
  let u = written.trim().replace(/[ \t]+/g, '/');
  u = u.replace(/^grpc:\/\//i, 'http://').replace(/^grpcs:\/\//i, 'https://');
  if (addScheme && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u) && !u.startsWith(':')) u = `http://${u}`;
  return u;
}

/**
 * A request's gRPC lines: its own proto lines (or else those of the file above it), with its
 * `# @grpc-proto` / `# @grpc-import-path` / `# @grpc-authority` directives.
 */
export function grpcNode(own: GrpcNode, fileWide: GrpcNode, directives: Directive[]): GrpcNode {
  const base = own.protos.length ? own : { ...fileWide, options: [...fileWide.options, ...own.options] };
  const out: GrpcNode = { protos: [...base.protos], importPaths: [...base.importPaths], options: [...base.options] };
  for (const d of directives) {
    if (d.name === 'grpc-proto' && d.value) out.protos.push({ file: d.value, line: d.line });
    if (d.name === 'grpc-import-path' && d.value) out.importPaths.push({ file: d.value, line: d.line });
    if (d.name === 'grpc-authority' && d.value) out.authority = d.value;
  }
  return out;
}
