// Compiled (not run) by types.test.ts: the public declarations cover typical Restangular-style code.
import {
  createClient,
  registerClientModule,
  ClientError,
  ClientHttpError,
  type ClientService,
  type ClientConfigurer,
  type ClientElement,
  type ClientCollection,
  type ClientPromise,
  type HttpResponse,
} from '../../../client-lib/src/index';

declare const angular: { module(name: string, requires?: string[]): any };
const moduleName: string = registerClientModule(angular);

function configure(p: ClientConfigurer): void {
  p.setBaseUrl('/api').setRequestSuffix('.json').setDefaultHeaders({ A: 'b' }).setClientFields({ id: '_id', selfLink: '_links.self.href' });
  p.setDefaultRequestParams(['get', 'remove'], { key: 'k' });
  p.setDefaultRequestParams({ common: 1 });
  p.addElementTransformer('users', true, (c) => c);
  p.extendModel('users', (u) => u);
  p.addResponseInterceptor((data, operation, what, url, response: HttpResponse, deferred) => (operation === 'getList' ? data.items : data));
  p.addRequestInterceptor((elem, operation) => (operation === 'remove' ? null : elem));
  p.addFullRequestInterceptor((elem, op, what, url, headers, params, httpConfig) => ({ headers: { ...headers, X: '1' } }));
  p.setErrorInterceptor((response, deferred, handler) => response.status !== 401);
  p.setOnElemClientized((elem, isCollection, what, client: ClientService) => undefined);
  p.configuration.getIdFromElem = (e: any) => e._id;
  const suffix: string | null = p.configuration.requestSuffix;
  void suffix;
}

async function use(Client: ClientService): Promise<void> {
  configure(Client);
  const accounts: ClientCollection = Client.all('accounts');
  const p: ClientPromise<ClientCollection> = accounts.getList({ page: 1 });
  const filled: ClientCollection = p.$object;
  const list = await accounts.getList();
  const first: ClientElement = list[0];
  const url: string = first.getClientUrl();
  const requested: string = list.getRequestedUrl();
  const saved = await first.save();
  await saved.put();
  await Client.one('accounts', 1).one('buildings', 2).all('spaces').getList();
  await Client.several('accounts', 1, 2).getList();
  await Client.oneUrl('me', '/me').get();
  await Client.allUrl('x', '/x').getList();
  await accounts.putElement(0);
  await first.customPOST({ a: 1 }, 'login', undefined, { 'Content-Type': undefined });
  await first.withHttpConfig({ timeout: 100 }).customGET('profile');
  first.addClientMethod('ban', 'put', 'ban');
  const scoped: ClientService = Client.withConfig((c) => c.setBaseUrl('/other'));
  const svc = scoped.service('users');
  await svc.one(1).get();
  await svc.getList();
  const plain = Client.stripClient(first);
  const copy = Client.copy(first);
  void [moduleName, filled, url, requested, plain, copy];
  try {
    await Client.one('x', 1).get();
  } catch (e) {
    if (e instanceof ClientHttpError) {
      const s: number = e.status;
      const code: string = e.code;
      void [s, code, e.headers('ETag'), e.config.url];
    } else if (e instanceof ClientError) void e.code;
  }
  const native = createClient({ baseUrl: 'http://127.0.0.1:1' });
  await native.all('users').post({ name: 'n' });
  await native.http({ method: 'GET', url: 'http://127.0.0.1:1/users' });
}
void use;
