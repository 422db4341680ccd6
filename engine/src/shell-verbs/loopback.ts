/**
 * The daemon's loopback port, for bash's calls without curl (docs/shell.md, "The daemon"):
 * bash can open a TCP connection itself (`/dev/tcp/127.0.0.1/PORT`, a redirection, no process
 * started) but not a Unix socket, so the daemon also listens on 127.0.0.1 at a port the kernel
 * picks. Every other user of the machine can reach that port, so a connection there is served
 * only with the daemon's token: 32 random bytes in hex, sent by the shell as `X-Rest-Token`.
 * And the shell must know it talks to this daemon before it sends a call (its arguments may
 * hold credentials): a daemon that died leaves `engine.tcp` behind, and another user's
 * program may have taken its port since. So the daemon greets every connection with its
 * proof, 32 more random bytes in hex and a newline, before anything else; the shell sends
 * nothing unless the greeting is the proof it read. Port, token and proof are written as
 * `PORT TOKEN PROOF` to `engine.tcp` in the runtime directory (mode 0600 in a directory of
 * mode 0700: readable by the user alone, as the Unix socket beside it is usable by the user
 * alone). zsh uses the Unix socket itself (its `zsocket` builtin).
 *
 * The connections are handed to the daemon's HTTP server, which serves them as it serves the
 * socket's; {@link allowed} says whether a request may be served.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Socket } from 'node:net';

export const PORT_FILE = 'engine.tcp';

/** The loopback connections, told apart from the Unix socket's. */
const loopback = new WeakSet<Socket>();
let token: Buffer | undefined;
let proof = '';

/**
 * May `req` be served? Always for the Unix socket; on the loopback port only with the token
 * (compared in constant time).
 */
export function allowed(req: http.IncomingMessage): boolean {
  if (!loopback.has(req.socket)) return true;
  const sent = req.headers['x-rest-token'];
  if (!token || typeof sent !== 'string' || sent.length !== token.length * 2 || !/^[0-9a-f]+$/.test(sent)) return false;
  return timingSafeEqual(Buffer.from(sent, 'hex'), token);
}

/**
 * Listen on 127.0.0.1 (a port the kernel picks), greet each connection with the proof, hand
 * it to `server`, and write `PORT TOKEN PROOF` to `dir/engine.tcp` (whole, under another name
 * first, then renamed).
 * @returns `close`, which stops listening and removes the file when it is still this daemon's.
 * @throws the listen error (no loopback interface): the caller goes on without the port.
 */
export async function listenLoopback(server: http.Server, dir: string): Promise<{ close: () => void }> {
  token = randomBytes(32);
  proof = randomBytes(32).toString('hex');
  const tcp = net.createServer((sock) => {
    loopback.add(sock);
    sock.write(`${proof}\n`);
    server.emit('connection', sock);
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (tcp.address() as net.AddressInfo).port;
  const file = path.join(dir, PORT_FILE);
  const line = `${port} ${token.toString('hex')} ${proof}\n`;
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, line, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return {
    close: () => {
      tcp.close();
      try {
        if (fs.readFileSync(file, 'utf8') === line) fs.rmSync(file, { force: true });
      } catch {
        /* gone */
      }
    },
  };
}
