/**
 * `sheet import-curl 'curl ...'` (docs/sheet-run.md, "sheet import-curl"): a curl command line
 * -> a sheet request on stdout, by the one converter (../curl/from-curl.ts, `curlToSheet`; the
 * same as Emacs's C-c C-y). The command comes as one argument (`'curl ...'`, as pasted), as
 * several words (`sheet import-curl -- curl -H 'A: b' URL`, quoted back for the converter), or
 * from standard input with `-` (a "Copy as cURL" over several lines).
 *
 * Exit status: 0 the request is printed and sends what curl sends (notes on stderr name what
 * changes nothing of the request: `-o`, a dropped `| jq .`; curl's connection options are the
 * request's directives, `# @proxy URL`, ...); 1 it is printed, but it differs from curl's
 * request (each difference named on stderr, e.g. a shell variable);
 * 2 nothing printed: a usage error or a command the sheet format cannot write (the message names
 * the option or the part, the hint what to do).
 */
import { EngineError } from '../errors.js';
import { curlToSheet } from '../curl/from-curl.js';
import { shellQuote } from '../curl/to-curl.js';
import { curlFileReader } from '../resolve/body-parts.js';

/** Where output goes, and standard input for `-` (injectable for tests). */
export interface ImportCurlIo {
  out: (s: string) => void;
  err: (s: string) => void;
  /** The whole of standard input as text; rejects over {@link STDIN_LIMIT} bytes. */
  stdin: () => Promise<string>;
}

/** The most standard input read for `-`, in bytes: a command line, not a body stream. */
export const STDIN_LIMIT = 16 * 1024 * 1024;

export const IMPORT_CURL_HELP = `Usage: sheet import-curl 'curl ...'
       sheet import-curl -- curl [OPTION...] URL
       sheet import-curl -            (the command on standard input)

Print the sheet request a curl command line sends (what "Copy as cURL" gives), ready to paste
into a .sheet file or to run with sheet run. -X, -H, -d/--data* (@file read from the current
directory), --json, -F, -u, -b (a cookie file too), -A, -e, -G, -I, -T, -r and --compressed are
converted; -x, --noproxy, -U, --unix-socket, -n, --netrc-file, --cacert, --cert, --key, --pass
and -k become the request's directives (# @proxy URL, ...); what a sheet cannot say is named
on stderr: "note:" when the request stays as curl sends it (-o, --max-time, a dropped | jq .),
"left out:" when the request differs from curl's (a shell variable, ...).
Exit status: 0 printed, the same request as curl's; 1 printed, but it differs from curl's
request as stderr says; 2 nothing printed.
`;

/** Read a stream whole as UTF-8 text, stopping with an error past `limit` bytes. */
export function readAll(stream: NodeJS.ReadableStream, limit = STDIN_LIMIT): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer | string) => {
      const b = typeof c === 'string' ? Buffer.from(c) : c;
      size += b.length;
      if (size > limit) {
        stream.removeAllListeners('data');
        reject(new EngineError('bad-argument', `standard input holds more than ${limit / 1024 / 1024} MiB; a curl command line is expected`, { hint: 'Give the command itself: sheet import-curl \'curl ...\'.' }));
        return;
      }
      chunks.push(b);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}

/**
 * Run `sheet import-curl ARGS` (`args` without the subcommand).
 * @returns the exit status (see the file comment).
 */
export async function importCurlCommand(args: string[], io: ImportCurlIo): Promise<number> {
  const usage = (msg: string) => {
    io.err(`sheet import-curl: ${msg}\nTry 'sheet import-curl --help'.\n`);
    return 2;
  };
  if (args[0] === '-h' || args[0] === '--help') {
    io.out(IMPORT_CURL_HELP);
    return 0;
  }
  const words = args[0] === '--' ? args.slice(1) : args;
  if (words.length === 0) return usage("give the curl command: sheet import-curl 'curl ...', or - to read it from standard input");
  let command: string;
  if (words.length === 1 && words[0] === '-' && args[0] !== '--') {
    try {
      command = await io.stdin();
    } catch (e) {
      return fail(io, e);
    }
    if (!command.trim()) return usage('standard input is empty; a curl command line is expected');
  } else if (words.length === 1) {
    command = words[0]!;
  } else {
    // Words the caller's shell has split already: quote them back for the converter's splitter.
    command = words.map(shellQuote).join(' ');
  }
  let result;
  try {
    result = curlToSheet(command, { readFile: curlFileReader(process.cwd()) });
  } catch (e) {
    return fail(io, e);
  }
  io.out(result.text);
  for (const w of result.warnings) io.err(`sheet import-curl: ${w.differs ? 'left out' : 'note'}: ${w.message}\n`);
  return result.warnings.some((w) => w.differs) ? 1 : 0;
}

function fail(io: ImportCurlIo, e: unknown): number {
  if (!(e instanceof EngineError)) throw e;
  io.err(`sheet import-curl: ${e.message}\n${e.hint ? `hint: ${e.hint}\n` : ''}`);
  return 2;
}
