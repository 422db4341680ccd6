/**
 * AWS Signature Version 4 (curl's `--aws-sigv4 "aws:amz:REGION:SERVICE"` with `-u KEY:SECRET`;
 * the `Authorization: AWS ...` line of VS Code REST Client and httpyac), signed by the npm
 * package `aws4`. What is signed follows curl (checked byte for byte against curl 7.88's
 * signature in test/engine/auth-sigv4.test.ts): `host`, `x-amz-date` and the request's own
 * headers, not the ones the front end adds by itself (curl signs its `-H` headers, not its
 * User-Agent, Accept or the Content-Type of `-d`), and not the Cookie of the jar.
 */
import aws4 from 'aws4';
import { EngineError } from '../errors.js';
import { bodyBytes, headerValue, type Request } from '../model.js';

/** Credentials and scope of one signature. */
export interface Sigv4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** Default: from the host name (`SERVICE.REGION.amazonaws.com`), as curl and aws4 read it. */
  region?: string;
  service?: string;
}

/**
 * curl's `--aws-sigv4 PROVIDER1[:PROVIDER2[:REGION[:SERVICE]]]` (curl's manual): only the
 * `aws:amz` providers are signed here (others go to the real curl in the shell).
 * @throws EngineError `bad-auth` naming the option for another provider or too many parts.
 */
export function parseSigv4Option(v: string): { region?: string; service?: string } {
  const parts = v.split(':');
  if (parts.length > 4 || parts[0]!.toLowerCase() !== 'aws' || (parts[1] !== undefined && parts[1].toLowerCase() !== 'amz')) {
    throw new EngineError('bad-auth', `--aws-sigv4 ${JSON.stringify(v)}: the engine signs "aws:amz[:REGION[:SERVICE]]" only`, { hint: 'Write --aws-sigv4 "aws:amz:us-east-1:execute-api".' });
  }
  return { ...(parts[2] ? { region: parts[2] } : {}), ...(parts[3] ? { service: parts[3] } : {}) };
}

/** `YYYYMMDDTHHMMSSZ`, the x-amz-date form (ISO 8601 basic). */
export function amzDate(d: Date): string {
  return d.toISOString().replace(/[:-]|\.\d{3}/g, '');
}

/**
 * `req` signed for `url`: an `X-Amz-Date` added when it has none (now), `X-Amz-Security-Token`
 * when a session token is given, and `Authorization: AWS4-HMAC-SHA256 ...`.
 * @param unsigned lower-case names of headers left out of the signature (the front end's own).
 */
export function signSigv4(req: Request, url: URL, c: Sigv4Credentials, unsigned: ReadonlySet<string>, now = new Date()): Request {
  const headers = req.headers.filter(([n]) => n.toLowerCase() !== 'authorization');
  if (headerValue(headers, 'x-amz-date') === undefined) headers.push(['X-Amz-Date', amzDate(now)]);
  if (c.sessionToken !== undefined && headerValue(headers, 'x-amz-security-token') === undefined) headers.push(['X-Amz-Security-Token', c.sessionToken]);
  const toSign: Record<string, string> = { Host: url.host };
  for (const [n, v] of headers) {
    const l = n.toLowerCase();
    if (unsigned.has(l) || l === 'host') continue;
    toSign[l] = toSign[l] === undefined ? v : `${toSign[l]},${v}`;
  }
  const body = bodyBytes(req.body);
  // aws4 adds and signs Content-Type, Content-Length and (s3) X-Amz-Content-Sha256 unless
  // present: curl signs none of them unless given, so they are left out here too.
  const ignore: Record<string, boolean> = {};
  for (const n of ['content-type', 'content-length', 'x-amz-content-sha256']) if (toSign[n] === undefined) ignore[n] = true;
  const signed = aws4.sign(
    {
      method: req.method,
      host: url.hostname,
      path: url.pathname + url.search,
      headers: toSign,
      body: body ? Buffer.from(body) : undefined,
      ...(c.region ? { region: c.region } : {}),
      ...(c.service ? { service: c.service } : {}),
      extraHeadersToIgnore: ignore,
    } as aws4.Request,
    { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey },
  );
  const authorization = (signed.headers as Record<string, string>).Authorization!;
  return { ...req, headers: [...headers, ['Authorization', authorization]] };
}
