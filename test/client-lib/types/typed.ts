// Compiled (not run) by types.test.ts with tsc --strict against the PUBLISHED declarations
// (package "angular-client-rest" -> exports types -> client-lib/dist/types): generics.
import { createClient, type ClientCollection, type ClientElement, type ClientService } from 'angular-client-rest';

// An app's own $http config key (angular-loading-bar's), declared as the README says.
declare module 'angular-client-rest' {
  interface HttpConfig {
    ignoreLoadingBar?: boolean;
  }
}

/** HttpConfig: $http's names, fetch's names, declared extras; anything else is an error (issue 38 item 4). */
function httpConfig(Client: ClientService): void {
  Client.one('me').withHttpConfig({ credentials: 'include', mode: 'cors', cache: 'no-store', redirect: 'manual', referrerPolicy: 'no-referrer', keepalive: true });
  Client.one('me').withHttpConfig({ withCredentials: true, cache: true, timeout: 1000, signal: new AbortController().signal, ignoreLoadingBar: true });
  // @ts-expect-error an unknown key (a misspelt credentials)
  Client.one('me').withHttpConfig({ credential: 'include' });
  // @ts-expect-error a value fetch does not know
  Client.one('me').withHttpConfig({ credentials: 'always' });
}
void httpConfig;

interface User {
  id: number;
  name: string;
  email?: string;
}

type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const yes = <T extends true>(): T => true as T;

async function typed(Client: ClientService): Promise<void> {
  const users = await Client.all<User>('users').getList();
  yes<Equals<typeof users, ClientCollection<User>>>();
  const u = await Client.one<User>('users', 1).get();
  yes<Equals<typeof u, ClientElement<User>>>();
  const n: string = u.name;
  const id: number = users[0].id;
  // @ts-expect-error misspelt field of a typed element
  void u.nmae;
  // @ts-expect-error wrong type of a typed field
  const wrong: number = u.name;
  u.name = 'Ada';
  const saved = await u.save();
  yes<Equals<typeof saved, ClientElement<User>>>();
  const plain: User = u.plain();
  const fromList = await users.get(2);
  // @ts-expect-error misspelt field through a collection
  void fromList.emial;
  const svc = Client.service<User>('users');
  const one = await svc.one(3).get();
  void one.email;
  // post() of a typed collection or service takes the fields of T (issue 23 item 3).
  const created = await Client.all<User>('users').post({ name: 'Barbara' });
  yes<Equals<typeof created, ClientElement<User>>>();
  // @ts-expect-error a body of the wrong shape: name is a string
  void Client.all<User>('users').post({ name: 42 });
  // @ts-expect-error a misspelt field in the body
  void users.post({ nmae: 'Barbara' });
  // @ts-expect-error the service's post checks the body too
  void svc.post({ id: 'seven' });
  void Client.all('accounts').post({ anything: 1 });
  const local = Client.clientizeElement<User>(null, { id: 4, name: 'n' }, 'users');
  void local.getClientUrl();
  // Untyped stays loose, as for Restangular code.
  const any = await Client.one('accounts', 1).get();
  void any.whatever;
  void [n, id, wrong, plain];
}

// The type arguments of @types/restangular (DefinitelyTyped 1.5.x): a migrated project writes
// the data type on the call, not on one()/all(). The same checks as above apply.
async function restangularTypings(Client: ClientService): Promise<void> {
  const u = await Client.one('users', 1).get<User>();
  yes<Equals<typeof u, ClientElement<User>>>();
  // @ts-expect-error misspelt field of an element typed on get<User>()
  void u.nmae;
  const users = await Client.all('users').getList<User>();
  yes<Equals<typeof users, ClientCollection<User>>>();
  const subs = await Client.one('accounts', 1).getList<User>('users', { limit: 2 });
  yes<Equals<typeof subs, ClientCollection<User>>>();
  const created = await Client.all('users').post<User>({ name: 'Barbara' });
  yes<Equals<typeof created, ClientElement<User>>>();
  // @ts-expect-error post<User>() checks the body against User
  void Client.all('users').post<User>({ nmae: 'Barbara' });
  const sub = await Client.one('accounts', 1).post<User>('users', { name: 'B' });
  yes<Equals<typeof sub, ClientElement<User>>>();
  const p1: User = u.plain<User>();
  const p2: User[] = users.plain<User>();
  const one = await Client.one('accounts', 1).get();
  const p3: User = one.plain<User>();
  const svcList = await Client.service('users').getList<User>();
  yes<Equals<typeof svcList, ClientCollection<User>>>();
  const got = await Client.service('users').get<User>(2);
  yes<Equals<typeof got, ClientElement<User>>>();
  const me = await Client.one('users', 1).customGET<User>('me');
  yes<Equals<typeof me, ClientElement<User>>>();
  const recent = await Client.all('users').customGETLIST<User>('recent');
  yes<Equals<typeof recent, ClientCollection<User>>>();
  const loose = await Client.one('users', 1).customGET('me');
  const s: string = loose;
  void [p1, p2, p3, s];
}

const native = createClient({ baseUrl: 'http://127.0.0.1:1' });
void typed(native);
void restangularTypings(native);
