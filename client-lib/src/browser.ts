/**
 * Entry of dist/client.js, loaded with <script>: sets the global `ClientLib` (createClient,
 * fetchTransport, the error classes, registerClientModule) and, when angular was loaded before
 * it, registers module `client`. Without AngularJS, `ClientLib.createClient({ baseUrl })`.
 */
import { registerClientModule } from './adapters/angular.js';
import { createClient, fetchTransport } from './adapters/fetch.js';
import { ClientError, ClientHttpError } from './core/errors.js';

const g: any = typeof window !== 'undefined' ? window : globalThis;
if (g.angular && typeof g.angular.module === 'function') registerClientModule(g.angular);
g.ClientLib = { createClient, fetchTransport, ClientError, ClientHttpError, registerClientModule };
