/**
 * `sheet engine --stdio`: the JSON-RPC server on stdin/stdout that sheet-mode talks to
 * (docs/protocol.md), for an engine installed with npm (sheet-mode starts `sheet engine --stdio`
 * when no engine is bundled next to its Elisp). The launcher engine/bin/sheet loads
 * dist/engine.cjs for `sheet engine` and `sheet engine --stdio` (the same server as
 * `node engine/dist/engine.cjs --stdio`, and it starts faster than this bundle), so only help
 * and usage errors reach this file.
 */

export const ENGINE_HELP = `Usage: sheet engine --stdio

The JSON-RPC 2.0 server (Content-Length framing) on standard input and output that Emacs's
sheet-mode starts; see docs/protocol.md. It runs until the client sends exit or closes stdin.
`;

/**
 * Run `sheet engine ARGS` (`args` without the subcommand) as far as this bundle goes.
 * @returns 0 after printing help; 2 on an unknown argument, or when started without the
 *   launcher (then the message says how to start the server).
 */
export function engineCommand(args: string[], io: { out: (s: string) => void; err: (s: string) => void }): number {
  if (args.length === 1 && (args[0] === '-h' || args[0] === '--help')) {
    io.out(ENGINE_HELP);
    return 0;
  }
  const bad = args.find((a) => a !== '--stdio') ?? (args.length > 1 ? args[1] : undefined);
  if (bad !== undefined) {
    io.err(`sheet engine: unknown argument ${bad}; the server speaks on stdio: sheet engine --stdio\n`);
    return 2;
  }
  io.err('sheet engine: start the server through the launcher (sheet engine --stdio, engine/bin/sheet) or as node engine/dist/engine.cjs --stdio\n');
  return 2;
}
