// The real OAuth2 server of the token tests (oauth2-mock-server on 127.0.0.1, port 0), with
// what its token endpoint received, and a small API of the tests' own on 127.0.0.1 that
// answers each request with the request as received and counts them (so a test can say that
// nothing reached the API).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { Events, OAuth2Server } from 'oauth2-mock-server';

/** One request the token endpoint received. */
export interface TokenCall {
  grant: string;
  /** The Authorization header, decoded when Basic (`id:secret`, each form-urldecoded). */
  basic?: string;
  body: Record<string, string>;
}

export interface IdP {
  tokenUrl: string;
  calls: TokenCall[];
  /** Answer the next token request with `status` and `body` instead of a token. */
  failNext(status: number, body: unknown): void;
  /** Make the tokens expire after `seconds` (expires_in), from now on. */
  expiresIn(seconds: number | undefined): void;
  /** Answer token requests of grant `grant` with `status` and `body`, until `undefined`. */
  refuse(grant: string | undefined, status?: number, body?: unknown): void;
  close(): Promise<void>;
}

export async function startIdP(): Promise<IdP> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const calls: TokenCall[] = [];
  let next: { status: number; body: unknown } | undefined;
  let expires: number | undefined;
  let refused: { grant: string; status: number; body: unknown } | undefined;
  server.service.on(Events.BeforeResponse, (res: { body: unknown; statusCode: number }, req: http.IncomingMessage & { body: Record<string, string> }) => {
    const auth = req.headers.authorization;
    const body = { ...req.body };
    // RFC 6749 2.3.1: the id and secret are form-urlencoded inside Basic; decoded as a server does.
    const basic = auth?.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString().split(':').map((p) => decodeURIComponent(p.replace(/\+/g, ' '))).join(':') : undefined;
    calls.push({ grant: body.grant_type ?? '', ...(basic !== undefined ? { basic } : {}), body });
    if (refused && refused.grant === body.grant_type) {
      res.statusCode = refused.status;
      res.body = refused.body;
    } else if (next) {
      res.statusCode = next.status;
      res.body = next.body;
      next = undefined;
    } else if (expires !== undefined) (res.body as Record<string, unknown>).expires_in = expires;
  });
  const address = server.address() as { port: number };
  return {
    tokenUrl: `http://127.0.0.1:${address.port}/token`,
    calls,
    failNext: (status, body) => (next = { status, body }),
    expiresIn: (s) => (expires = s),
    refuse: (grant, status = 400, body = { error: 'invalid_grant' }) => (refused = grant === undefined ? undefined : { grant, status, body }),
    close: () => server.stop(),
  };
}

/** What the tests' API received. */
export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface EchoApi {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** An API on 127.0.0.1 that answers every request with it as JSON and keeps it. */
export async function startEchoApi(): Promise<EchoApi> {
  const received: Received[] = [];
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      received.push(r);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r));
    });
  });
  await new Promise<void>((ok) => srv.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(srv.address() as { port: number }).port}`,
    received,
    close: () => new Promise<void>((ok) => srv.close(() => ok())),
  };
}

/** Write JetBrains' public and private environment files into `dir`. */
export function writeEnvFiles(dir: string, pub: unknown, priv?: unknown): void {
  fs.writeFileSync(path.join(dir, 'http-client.env.json'), JSON.stringify(pub, null, 2));
  if (priv !== undefined) fs.writeFileSync(path.join(dir, 'http-client.private.env.json'), JSON.stringify(priv, null, 2));
  else fs.rmSync(path.join(dir, 'http-client.private.env.json'), { force: true });
}
