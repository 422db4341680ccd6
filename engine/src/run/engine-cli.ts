/**
 * `sheet engine --stdio`: the JSON-RPC server on stdin/stdout that sheet-mode talks to
 * (docs/protocol.md), the same server as `node engine/dist/engine.cjs --stdio` (../rpc/server.ts),
 * for an engine installed with npm: sheet-mode starts `sheet engine --stdio` when no engine is
 * bundled next to its Elisp. Runs until `exit` or the end of stdin; nothing but protocol goes to
 * stdout.
 */
import { runStdioServer } from '../rpc/server.js';

export const ENGINE_HELP = `Usage: sheet engine --stdio

The JSON-RPC 2.0 server (Content-Length framing) on standard input and output that Emacs's
sheet-mode starts; see docs/protocol.md. It runs until the client sends exit or closes stdin.
`;

/**
 * Run `sheet engine ARGS` (`args` without the subcommand).
 * @returns 0 after starting the server (it exits the process itself) or printing help; 2 on an
 *   unknown argument.
 */
export function engineCommand(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
  if (args.length === 1 && (args[0] === '-h' || args[0] === '--help')) {
    io.out(ENGINE_HELP);
    return 0;
  }
  if (args.length > 1 || (args.length === 1 && args[0] !== '--stdio')) {
    io.err(`sheet engine: unknown argument ${args.find((a) => a !== '--stdio')}; the server speaks on stdio: sheet engine --stdio\n`);
    return 2;
  }
  runStdioServer();
  return 0;
}
