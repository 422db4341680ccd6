/**
 * The command the shell verbs call (`engine.cjs cli ...`). Filled in by the shell front end;
 * see shell/README.md.
 */
export async function runCli(argv: string[]): Promise<number> {
  process.stderr.write(`rest: the command line is not built yet (${argv.join(' ')})\n`);
  return 2;
}
