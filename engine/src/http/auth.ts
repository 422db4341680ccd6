/**
 * Authentication of one `send` (docs/networks.md, "Credentials"): where the credentials come
 * from and what is done with them, the same for every front end.
 *
 * - The `Authorization` shorthands of VS Code REST Client and httpyac, in sheets and `.http`
 *   files alike: `Digest USER PASSWORD` (answer the server's Digest challenge) and
 *   `AWS KEY SECRET [token:T] [region:R] [service:S]` (sign with AWS SigV4). Basic's shorthand
 *   is rewritten earlier (resolve/http-auth.ts).
 * - curl's `--digest` and `--aws-sigv4` with `-u` (the shell verbs: {@link AuthOptions}).
 * - curl's `-n`/`--netrc-file`/`--netrc-optional` (netrc.ts): the host's credentials, when
 *   the request has no Authorization of its own and its URL no password; Basic, or Digest
 *   with `--digest`.
 *
 * Digest costs a round trip, as in curl: the first request goes without its body
 * (Content-Length: 0), the 401's challenge is answered with the body; a server that does not
 * ask (2xx) gets the request again with its body (curl's lib/http.c `Curl_http_auth_act`).
 * Credentials are kept for the first origin only, as curl keeps `-u` (redirects.ts drops the
 * header across origins); netrc is looked up again for each host.
 */
import { EngineError } from '../errors.js';
import type { Header, Request } from '../model.js';
import { basicAuthHeader, hasHeader, urlCredentials } from '../curl/rules.js';
import { digestAuthorization, digestChallenge, type DigestChallenge } from './digest.js';
import { netrcCredentials, readNetrc, type NetrcEntry, type NetrcOptions } from './netrc.js';
import { parseSigv4Option, signSigv4, type Sigv4Credentials } from './sigv4.js';
import { authShorthand } from '../curl/auth-shorthand.js';

export { authShorthand, type AuthShorthand } from '../curl/auth-shorthand.js';

/** What the caller says about authentication beyond the request's headers (the shell's curl options). */
export interface AuthOptions {
  /** curl's `-u USER:PASSWORD` when `digest` or `awsSigv4` is set (else -u is a Basic header already). */
  user?: string;
  /** curl's `--digest`: `user`, the URL's or netrc's credentials answer a Digest challenge. */
  digest?: boolean;
  /** curl's `--aws-sigv4 "aws:amz[:REGION[:SERVICE]]"`, with `user` as KEY:SECRET. */
  awsSigv4?: string;
  /** curl's `-n`, `--netrc-file`, `--netrc-optional`. */
  netrc?: NetrcOptions;
  /** Lower-case names of headers the front end added on its own, left out of a SigV4 signature. */
  unsigned?: string[];
}

/** `user:password` split at the first colon (curl's -u). */
function splitUser(u: string): [string, string] {
  const i = u.indexOf(':');
  return i < 0 ? [u, ''] : [u.slice(0, i), u.slice(i + 1)];
}

/** One hop as the authenticator prepared it. */
export interface AuthHop {
  request: Request;
  /** The body is held back: a Digest probe (Content-Length: 0), as curl sends it. */
  withheld: boolean;
}

/**
 * The authentication state of one `send`. Built before anything is sent, so a malformed
 * shorthand or an unreadable netrc file stops the request (`bad-auth`, `bad-netrc`).
 */
export class Authenticator {
  /** The first request: shorthand header taken out, URL credentials applied or taken out. */
  readonly request: Request;
  private digest?: { user: string; password: string };
  private aws?: Sigv4Credentials;
  private origin?: string;
  private challenge?: DigestChallenge;
  private nc = 0;
  private answered = 0;
  private probed = false;
  private entries?: NetrcEntry[];
  /** `http://user@host` with netrc: the login to look up, for the first URL's origin only. */
  private login?: { user: string; origin?: string };
  private readonly digestMode: boolean;
  private readonly unsigned: ReadonlySet<string>;

  constructor(request: Request, o: AuthOptions = {}) {
    const headers: Header[] = [...request.headers];
    let url = request.url;
    this.digestMode = !!o.digest;
    this.unsigned = new Set(['user-agent', 'cookie', ...(o.unsigned ?? [])]);
    const ai = headers.findIndex(([n]) => n.toLowerCase() === 'authorization');
    const short = ai >= 0 ? authShorthand(headers[ai]![1], request.line) : undefined;
    if (short) headers.splice(ai, 1);
    if (o.netrc) this.entries = readNetrc(o.netrc);
    const cred = urlCredentials(url);
    if (cred.user !== undefined) url = cred.url;
    if (short?.kind === 'digest') this.digest = { user: short.user, password: short.password };
    else if (short?.kind === 'aws') this.aws = short;
    else if (o.awsSigv4 !== undefined) {
      const u = o.user ?? cred.user;
      if (u === undefined) throw new EngineError('bad-auth', '--aws-sigv4 needs -u ACCESS_KEY_ID:SECRET_KEY', { hint: 'Add -u KEY:SECRET.' });
      const [k, s] = splitUser(u);
      this.aws = { accessKeyId: k, secretAccessKey: s, ...parseSigv4Option(o.awsSigv4) };
    } else if (!hasHeader(headers, 'authorization')) {
      const u = o.user ?? cred.user;
      const urlHasPassword = /^[a-z][a-z0-9+.-]*:\/\/[^/?#@]*:[^/?#]*@/i.test(request.url);
      if (cred.user !== undefined && !urlHasPassword && o.user === undefined && this.entries) {
        // http://user@host with netrc: the password of that login (curl's manual, --netrc).
        this.login = { user: cred.user.slice(0, -1), origin: URL.canParse(url) ? new URL(url).origin : undefined };
      } else if (u !== undefined && this.digestMode) this.digest = { user: splitUser(u)[0], password: splitUser(u)[1] };
      else if (u !== undefined) headers.push(basicAuthHeader(u));
      else if (o.digest && !this.entries) throw new EngineError('bad-auth', '--digest needs -u USER:PASSWORD (or -n and a .netrc entry)', { hint: 'Add -u USER:PASSWORD.' });
    }
    // An invalid URL is send's `invalid-url`, said after this.
    if (this.digest || this.aws) this.origin = URL.canParse(url) ? new URL(url).origin : undefined;
    this.request = { ...request, url, headers };
  }

  /** The request of the hop to `url`: netrc's credentials, a SigV4 signature, a Digest answer or probe. */
  hop(current: Request, url: URL): AuthHop {
    const mine = this.origin === url.origin;
    if (!mine && this.entries && !hasHeader(current.headers, 'authorization')) {
      const login = this.login?.origin === url.origin ? this.login.user : undefined;
      // No entry for that login: the URL's user alone, as without netrc (`user:`).
      const found = netrcCredentials(this.entries, url.hostname, login) ?? (login !== undefined ? `${login}:` : undefined);
      if (found !== undefined && this.digestMode) {
        const [user, password] = splitUser(found);
        this.digest = { user, password };
        this.origin = url.origin;
        return this.hop(current, url);
      }
      if (found !== undefined) return { request: { ...current, headers: [...current.headers, basicAuthHeader(found)] }, withheld: false };
    }
    if (!mine) return { request: current, withheld: false };
    if (this.aws) return { request: signSigv4(current, url, this.aws, this.unsigned), withheld: false };
    if (this.digest && this.challenge) {
      const value = digestAuthorization(this.challenge, this.digest.user, this.digest.password, current.method, url.pathname + url.search, ++this.nc);
      return { request: { ...current, headers: [...current.headers, ['Authorization', value]] }, withheld: false };
    }
    if (this.digest && !this.probed && current.body !== undefined) {
      this.probed = true;
      return { request: { ...current, body: undefined }, withheld: true };
    }
    return { request: current, withheld: false };
  }

  /**
   * Whether the response to `hop` is answered by sending the same request again (so its body
   * is not wanted): a 401 with a Digest challenge not answered yet, or answered with a nonce
   * the server now calls stale (RFC 7616 section 3.3), at most twice; or a Digest probe the
   * server did not challenge (2xx), sent again with its body as curl does.
   */
  willRetry(hop: AuthHop, status: number, headers: Header[]): boolean {
    if (!this.digest) return false;
    if (status !== 401) return hop.withheld && status < 300;
    const c = digestChallenge(headers);
    return !!c && (this.answered === 0 || c.stale) && this.answered < 2;
  }

  /** After the hop's response head: {@link willRetry}, with the challenge kept for the next hop. */
  again(hop: AuthHop, status: number, headers: Header[]): boolean {
    if (!this.willRetry(hop, status, headers)) return false;
    if (status === 401) {
      this.challenge = digestChallenge(headers);
      this.nc = 0;
      this.answered++;
    }
    return true;
  }
}
