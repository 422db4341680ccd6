// A Node ES module consumer (module nodenext): the README's Node example type-checks, through
// the package's "node" export condition and through angular-client-rest/node.
import { createClient, ClientHttpError } from 'angular-client-rest';
import { createClient as createNodeClient, type NodeClientOptions } from 'angular-client-rest/node';

const client = createClient({ baseUrl: 'http://127.0.0.1:8080', cookieJar: 'cookies.txt', timeoutMs: 5000 });
const options: NodeClientOptions = { baseUrl: 'http://127.0.0.1:8080', followRedirects: false };
const other = createNodeClient(options);
export async function names(): Promise<string[]> {
  try {
    const users = await client.all<{ id: number; name: string }>('users').getList();
    await other.one('users', 1).get();
    return users.map((u) => u.name);
  } catch (e) {
    if (e instanceof ClientHttpError) return [e.code];
    throw e;
  }
}
