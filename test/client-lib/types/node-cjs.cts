// A Node CommonJS consumer (.cts, module nodenext): the declarations it gets are CommonJS ones
// (no TS1479), and the "node" condition gives the cookie jar option.
import { createClient } from 'angular-client-rest';
import node = require('angular-client-rest/node');

const client = createClient({ baseUrl: 'http://127.0.0.1:8080', cookieJar: 'cookies.txt' });
const other = node.createClient({ baseUrl: 'http://127.0.0.1:8080', insecure: true });
export const urls: string[] = [client.one('users', 1).getClientUrl(), other.all('users').getClientUrl()];
