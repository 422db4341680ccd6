// Compiled by types.test.ts under moduleResolution bundler with customConditions ["node"] (the
// README's recipe for a Node project on bundler resolution): the Node options of createClient
// type-check through the main entry, as under node16/nodenext.
import { createClient } from 'angular-client-rest';

export const client = createClient({ baseUrl: 'http://127.0.0.1:8080', cookieJar: 'cookies.txt', timeoutMs: 5000 });
