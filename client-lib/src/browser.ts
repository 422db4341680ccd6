/** Entry of dist/client.js: loaded with <script> after angular, registers module `client`. */
import { registerClientModule } from './adapters/angular.js';
import { createClient, fetchTransport } from './adapters/fetch.js';
import { ClientError, ClientHttpError } from './core/errors.js';

const g: any = typeof window !== 'undefined' ? window : globalThis;
if (!g.angular) throw new Error('client.js: load angular before client.js');
registerClientModule(g.angular);
g.ClientLib = { createClient, fetchTransport, ClientError, ClientHttpError };
