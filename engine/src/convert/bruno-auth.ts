/**
 * Bruno auth (`auth { mode }` of collection.bru and folder.bru, `auth:` of a request, and the
 * `auth:MODE` blocks) onto the Postman shape, so that one mapping (`postman-auth.ts`) writes it
 * for the `.http` model: basic, bearer, apikey (`placement: header` or `queryparams`), digest,
 * awsv4, oauth2 (grant types by Bruno's names). Bruno's inherit rule is applied by bruno.ts.
 * Decisions: docs/import.md, "Bruno".
 */
import type { ImportWarning } from './model.js';
import type { PostmanAuth } from './postman-auth.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- @usebruno/lang's untyped output

const str = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * Bruno's auth of one level (`mode`, and the `auth:MODE` block's fields as @usebruno/lang gives
 * them) as the Postman shape `mapAuth` reads: `'inherit'` for `inherit` (or no mode), undefined
 * for `none`. What it cannot carry is warned about at `where`, on the line `lineOf` finds.
 */
export function authOf(mode: string, auth: Json, where: string, warnings: ImportWarning[], lineOf: (re: RegExp, after?: RegExp) => number | undefined): PostmanAuth | undefined | 'inherit' {
  if (!mode || mode === 'inherit') return 'inherit';
  if (mode === 'none') return undefined;
  const a = (auth[mode] ?? {}) as Json;
  switch (mode) {
    case 'basic':
    case 'digest':
      return { type: mode, params: { username: a.username, password: a.password } };
    case 'bearer':
      return { type: 'bearer', params: { token: a.token } };
    case 'apikey':
      return { type: 'apikey', params: { key: a.key, value: a.value, in: a.placement === 'queryparams' ? 'query' : 'header' } };
    case 'awsv4':
      if (str(a.profileName)) warnings.push({ where, line: lineOf(/^\s+profileName:/, /^auth:awsv4\b/), message: `AWS profile ${str(a.profileName)} is not read; give the access key and secret` });
      return { type: 'awsv4', params: { accessKey: a.accessKeyId, secretKey: a.secretAccessKey, sessionToken: a.sessionToken, region: a.region, service: a.service } };
    case 'oauth2': {
      const grants: Record<string, string> = { password: 'password_credentials', client_credentials: 'client_credentials', authorization_code: a.pkce ? 'authorization_code_with_pkce' : 'authorization_code', implicit: 'implicit' };
      if (a.tokenPlacement === 'url') warnings.push({ where, line: lineOf(/^\s+token_placement:/, /^auth:oauth2\s*\{/), message: 'OAuth2 token placed in the URL: it is sent in the Authorization header instead' });
      return {
        type: 'oauth2',
        params: {
          grant_type: grants[str(a.grantType)] ?? str(a.grantType),
          accessTokenUrl: a.accessTokenUrl,
          authUrl: a.authorizationUrl,
          redirect_uri: a.callbackUrl,
          clientId: a.clientId,
          clientSecret: a.clientSecret,
          scope: a.scope,
          username: a.username,
          password: a.password,
          client_authentication: a.credentialsPlacement === 'basic_auth_header' ? 'header' : 'body',
          headerPrefix: a.tokenHeaderPrefix,
        },
      };
    }
    default:
      // ntlm, oauth1, wsse, akamai-edgegrid: mapAuth's own warning names the type.
      return { type: mode, params: {} };
  }
}
