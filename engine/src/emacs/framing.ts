/**
 * The stdio transport's framing, around vscode-jsonrpc's reader and writer: `Content-Length`
 * frames in, answers to the frames that are not messages (JSON-RPC 2.0: -32700 Parse error,
 * -32600 Invalid Request), and frames out written in one piece, with nothing in them that
 * Emacs 28's JSON parser rejects.
 */
import { AbstractMessageWriter, type Message, type MessageConnection, type MessageWriter } from 'vscode-jsonrpc';

/**
 * A frame the engine cannot take as a message, answered with a JSON-RPC error (JSON-RPC 2.0,
 * section 5.1): -32700 Parse error for a body that is not JSON (a raw NUL or another control
 * character inside a string, JSON cut short) or a header without a usable Content-Length;
 * -32600 Invalid Request for JSON that is not a request, a notification or a response.
 */
export class BadFrame extends Error {
  constructor(
    /** -32700 or -32600. */
    readonly rpcCode: number,
    message: string,
    /** The request's id when it could be read (Invalid Request), else null, as JSON-RPC says. */
    readonly id: string | number | null,
    /** The frame's body as received (UTF-8), for the log. */
    readonly body: string,
  ) {
    super(message);
    this.name = 'BadFrame';
  }
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** Why a parsed frame is not a JSON-RPC message vscode-jsonrpc can dispatch; undefined when it is. */
function invalidMessage(m: unknown): { why: string; id: string | number | null } | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) {
    return { why: Array.isArray(m) ? 'batches are not supported; send one message per frame' : 'a message is a JSON object', id: null };
  }
  const o = m as Record<string, unknown>;
  const id = isId(o.id) ? o.id : null;
  if ('method' in o) {
    if (typeof o.method !== 'string') return { why: 'method must be a string', id };
    if (o.id !== undefined && !isId(o.id)) return { why: 'id must be a string or a number', id: null };
    // vscode-jsonrpc passes any params through; JSON-RPC wants a structured value (null is let
    // through, as some clients send it for "no params").
    if (o.params !== undefined && o.params !== null && typeof o.params !== 'object') return { why: 'params must be an object or an array', id };
    return undefined;
  }
  if ('result' in o || 'error' in o) return undefined;
  return { why: 'neither a request, a notification nor a response (no method, no result, no error)', id };
}

/**
 * The reader's JSON decoder (vscode-jsonrpc's `contentTypeDecoder` option), strict where the
 * stock one is silent: its parse errors reach only the connection's `onError`, which nobody
 * answers, and JSON that is not a message is logged and dropped; here both become a
 * {@link BadFrame} that {@link answerBadFrames} replies to.
 */
export const strictJsonDecoder = {
  name: 'application/json',
  decode(buffer: Uint8Array): Promise<Message> {
    const text = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength).toString('utf8');
    let m: unknown;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return Promise.reject(new BadFrame(PARSE_ERROR, `Parse error: ${(e as Error).message}`, null, text));
    }
    const bad = invalidMessage(m);
    if (bad) return Promise.reject(new BadFrame(INVALID_REQUEST, `Invalid Request: ${bad.why}`, bad.id, text));
    return Promise.resolve(m as Message);
  },
};

/** vscode-jsonrpc's header errors (messageReader.js, messageBuffer.js): the frame is lost. */
const HEADER_ERROR = /^(Header must provide a Content-Length|Content-Length value must be a number|Message header must separate key and value)/;

/**
 * Answer the frames the reader could not take (JSON-RPC 2.0: a Parse error or an Invalid
 * Request gets a response, with id null when it cannot be read) and log what was dropped on
 * stderr. The connection goes on serving: vscode-jsonrpc's reader drops the frame and reads
 * the next one.
 * @param log where the log lines go (default stderr).
 */
export function answerBadFrames(conn: MessageConnection, writer: MessageWriter, log: (line: string) => void = (l) => process.stderr.write(l)): void {
  conn.onError(([error]) => {
    let reply: BadFrame;
    if (error instanceof BadFrame) reply = error;
    else if (HEADER_ERROR.test(error.message)) reply = new BadFrame(PARSE_ERROR, `Parse error: ${error.message.split('\n')[0]}`, null, '');
    else {
      log(`engine: input error: ${error.message}\n`);
      return;
    }
    const preview = reply.body.length > 200 ? `${JSON.stringify(reply.body.slice(0, 200))}...` : JSON.stringify(reply.body);
    log(`engine: dropped a frame (${Buffer.byteLength(reply.body)} bytes${reply.body ? `: ${preview}` : ''}): ${reply.message}; answered ${reply.rpcCode}\n`);
    const response = { jsonrpc: '2.0', id: reply.id, error: { code: reply.rpcCode, message: reply.message } };
    writer.write(response as Message).catch(() => undefined);
  });
}

/** Replace what Emacs 28's JSON parser rejects in a string: NUL (as U+2400 ␀), lone surrogates (as U+FFFD). */
function readableByEmacs(v: string): string {
  return v.replace(/\u0000/g, '\u2400').replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/**
 * Writes each message, `Content-Length` header and JSON together, with one write to the stream.
 * vscode-jsonrpc's StreamMessageWriter writes the header, waits for the write's callback and
 * then writes the body: two writes on the pipe, so the client is woken up for the header
 * alone and then again for the body, which adds a wake-up and a wait to every answer.
 * Messages are written in the order `write` is called.
 */
export class FramedStreamWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;

  constructor(private readonly out: NodeJS.WritableStream) {
    super();
    out.on('error', (e: Error) => this.fireError(e));
    out.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let json = JSON.stringify(msg);
    // Emacs 28's json-parse-string rejects "\u0000" and lone surrogates ("\ud800") in strings:
    // the whole answer would be lost. Bodies never get here with them (they travel as base64 or
    // in a file, see session.ts); anything else that holds one (a header value, a message) is
    // shown with a stand-in. The check is on the JSON text, so it costs one scan.
    if (/(?<!\\)(?:\\\\)*\\u(?:0000|d[89a-f][0-9a-f]{2})/.test(json)) {
      const before = json;
      json = JSON.stringify(msg, (_k, v: unknown) => (typeof v === 'string' ? readableByEmacs(v) : v));
      if (json !== before) process.stderr.write('engine: a string in a message to the client held NUL or a lone surrogate, which Emacs 28 cannot read; sent as U+2400 / U+FFFD\n');
    }
    const body = Buffer.from(json, 'utf8');
    const header = `Content-Length: ${body.length}\r\n\r\n`;
    const frame = Buffer.allocUnsafe(header.length + body.length);
    frame.write(header, 0, 'ascii');
    body.copy(frame, header.length);
    return new Promise((resolve, reject) => {
      this.out.write(frame, (e?: Error | null) => {
        if (!e) {
          this.errorCount = 0;
          resolve();
          return;
        }
        this.errorCount++;
        this.fireError(e, msg, this.errorCount);
        reject(e);
      });
    });
  }

  end(): void {
    this.out.end();
  }
}
