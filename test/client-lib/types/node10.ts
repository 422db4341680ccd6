// moduleResolution node10 (no "exports"): the root and angular-client-rest/node (the node/ folder stub).
import { createClient } from 'angular-client-rest/node';
import { ClientError } from 'angular-client-rest';

const client = createClient({ baseUrl: 'http://127.0.0.1:8080', cookieJar: 'cookies.txt' });
export const url: string = client.one('users', 1).getClientUrl();
export const isError = (e: unknown): boolean => e instanceof ClientError;
