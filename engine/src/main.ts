/**
 * The engine's one entry point (bundled to engine/dist/engine.cjs):
 *   engine.cjs [--stdio]      JSON-RPC server on stdin/stdout (what sheet-mode starts)
 *   engine.cjs cli ...        the shell verbs' command (see src/cli)
 *   engine.cjs --version
 */
import { runStdioServer } from './emacs/server.js';
import { VERSION } from './version.js';

async function main(argv: string[]): Promise<void> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '--stdio' || cmd === 'rpc') {
    runStdioServer();
    return;
  }
  if (cmd === '--version') {
    process.stdout.write(`sheet-engine ${VERSION}\n`);
    return;
  }
  if (cmd === 'cli') {
    const { runCli } = await import('./shell-verbs/main.js');
    process.exitCode = await runCli(rest);
    return;
  }
  process.stderr.write(`engine: unknown command ${JSON.stringify(cmd)}; use --stdio, cli or --version\n`);
  process.exitCode = 2;
}

void main(process.argv.slice(2));
