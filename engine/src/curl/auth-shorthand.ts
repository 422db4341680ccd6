/**
 * The `Authorization` shorthands of VS Code REST Client ("Digest Auth", "AWS Signature v4")
 * and httpyac (`digestAuthVariableReplacer`, `awsAuthVariableReplacer`), in sheets and `.http`
 * files alike: `Digest USER PASSWORD` and `AWS KEY SECRET [token:T] [region:R] [service:S]`,
 * and the curl options they are (`--digest -u`, `--aws-sigv4 -u`), both ways: read here,
 * performed by http/auth.ts, written by to-curl.ts, read back by from-curl.ts. Browser-safe
 * (the client library bundles to-curl.ts).
 */
import { EngineError } from '../errors.js';
import type { Header } from '../model.js';

/** What an `Authorization` line written as a shorthand asks for. */
export type AuthShorthand =
  | { kind: 'digest'; user: string; password: string }
  | { kind: 'aws'; accessKeyId: string; secretAccessKey: string; sessionToken?: string; region?: string; service?: string };

const DIGEST_WORDS = /^\s*digest\s+(\S+)(?:\s+(.*?))?\s*$/i;
const AWS_WORDS = /^\s*aws\s+(.*?)\s*$/i;

/**
 * The shorthand an `Authorization` value is written in (VS Code REST Client's "Digest Auth"
 * and "AWS Signature v4"; httpyac's `digestAuthVariableReplacer`, `awsAuthVariableReplacer`),
 * or undefined for any other value (a real `Digest username="..."` answer included).
 * @param line the request's line, for errors.
 * @throws EngineError `bad-auth` naming the line when a word is missing (the password, the secret).
 */
export function authShorthand(value: string, line?: number): AuthShorthand | undefined {
  const d = DIGEST_WORDS.exec(value);
  if (d) {
    if (d[1]!.includes('=')) return undefined; // `Digest username="u", ...`: an answer, sent as written
    if (d[2] === undefined || d[2] === '') {
      throw new EngineError('bad-auth', `Authorization: Digest ${d[1]}: no password`, { ...(line !== undefined ? { line } : {}), hint: 'Write Authorization: Digest USER PASSWORD.' });
    }
    return { kind: 'digest', user: d[1]!, password: d[2] };
  }
  const a = AWS_WORDS.exec(value);
  if (a) {
    const words = a[1]!.split(/\s+/).filter((w) => w !== '');
    if (words[0]?.includes('=')) return undefined;
    if (words.length < 2 || words[1]!.includes(':')) {
      throw new EngineError('bad-auth', `Authorization: AWS needs the access key id and the secret key`, { ...(line !== undefined ? { line } : {}), hint: 'Write Authorization: AWS KEY SECRET [token:TOKEN] [region:REGION] [service:SERVICE].' });
    }
    const c: AuthShorthand = { kind: 'aws', accessKeyId: words[0]!, secretAccessKey: words[1]! };
    for (const w of words.slice(2)) {
      const m = /^(token|region|service):(.*)$/i.exec(w);
      if (!m) throw new EngineError('bad-auth', `Authorization: AWS: ${JSON.stringify(w)} is not token:, region: or service:`, { ...(line !== undefined ? { line } : {}), hint: 'Write Authorization: AWS KEY SECRET [token:TOKEN] [region:REGION] [service:SERVICE].' });
      const k = m[1]!.toLowerCase();
      if (k === 'token') c.sessionToken = m[2]!;
      else if (k === 'region') c.region = m[2]!;
      else c.service = m[2]!;
    }
    return c;
  }
  return undefined;
}


/**
 * The curl words that send what the shorthand `value` asks for (curl's manual: `--digest`,
 * `--aws-sigv4`, `-u`), and the headers to print with `-H` (a session token as
 * `x-amz-security-token`, as curl needs it given); undefined when `value` is no shorthand.
 */
export function shorthandCurlWords(value: string): { words: string[]; headers: Header[] } | undefined {
  let s: AuthShorthand | undefined;
  try {
    s = authShorthand(value);
  } catch {
    return undefined; // sent as written, as the engine would refuse it: the command shows it
  }
  if (!s) return undefined;
  if (s.kind === 'digest') return { words: ['--digest', '-u', `${s.user}:${s.password}`], headers: [] };
  const provider = ['aws', 'amz', ...(s.region !== undefined || s.service !== undefined ? [s.region ?? ''] : []), ...(s.service !== undefined ? [s.service] : [])].join(':');
  return { words: ['--aws-sigv4', provider, '-u', `${s.accessKeyId}:${s.secretAccessKey}`], headers: s.sessionToken !== undefined ? [['X-Amz-Security-Token', s.sessionToken]] : [] };
}

/**
 * The `Authorization` shorthand line for curl's `--digest -u USER:PASSWORD` or `--aws-sigv4
 * PROVIDER -u KEY:SECRET` (the import), or a reason it cannot be written (a blank in the user
 * name, an empty password, a provider other than `aws:amz`).
 */
export function shorthandFromCurl(scheme: 'digest' | 'aws-sigv4', user: string, provider?: string): { value: string } | { reason: string } {
  const i = user.indexOf(':');
  const name = i < 0 ? user : user.slice(0, i);
  const secret = i < 0 ? '' : user.slice(i + 1);
  if (/\s/.test(name) || secret === '' || /^\s|\s$/.test(secret)) return { reason: 'an Authorization shorthand line cannot hold a user name with blanks, or an empty password or one with blanks at its ends' };
  if (scheme === 'digest') return { value: `Digest ${name} ${secret}` };
  if (/\s/.test(secret)) return { reason: 'an AWS line cannot hold a secret key with blanks' };
  const parts = (provider ?? '').split(':');
  if (parts[0]?.toLowerCase() !== 'aws' || (parts[1] !== undefined && parts[1].toLowerCase() !== 'amz') || parts.length > 4) return { reason: `only the aws:amz provider has an AWS line (not ${provider})` };
  return { value: ['AWS', name, secret, ...(parts[2] ? [`region:${parts[2]}`] : []), ...(parts[3] ? [`service:${parts[3]}`] : [])].join(' ') };
}
