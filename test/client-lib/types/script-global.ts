// Compiled by package-types.test.ts (moduleResolution bundler, the published declarations): the
// <script> build's global, typed by importing the script for its effect (issue 38 item 7).
import 'angular-client-rest/dist/client.js';

const client = ClientLib.createClient({ baseUrl: '/api' });
export const users = client.all('users').getList();
export const isHttpError = (e: unknown): boolean => e instanceof ClientLib.ClientHttpError;
// @ts-expect-error the global has only what dist/client.js sets
ClientLib.createService;
