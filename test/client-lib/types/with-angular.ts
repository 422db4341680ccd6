// Compiled (not run) by types.test.ts with tsc --strict against the PUBLISHED declarations and
// @types/angular: the library's promises are AngularJS promises to the type checker too, as
// @types/restangular's were (its IPromise extends angular.IPromise). Each line is a habit of
// AngularJS code: $q.all over calls, .then().catch().finally() chains, an angular.IPromise slot.
import * as angular from 'angular';
import type { ClientService, ClientElement, ClientCollection } from 'angular-client-rest';

interface User {
  id: number;
  name: string;
}

export function habits(Client: ClientService, $q: angular.IQService): void {
  $q.all([Client.one<User>('users', 1).get(), Client.one<User>('users', 2).get()]).then(([u, v]) => {
    const n: string = u.name + v.name;
    void n;
  });
  // A collection's promise in $q.all needs the type arguments written out (TypeScript infers
  // `unknown` there; docs/client-lib.md, "Types").
  $q.all<ClientElement<User>, ClientCollection<User>>([Client.one<User>('users', 1).get(), Client.all<User>('users').getList()]).then(([u, list]) => {
    const n: string = u.name;
    const m: number = list.length;
    void [n, m];
  });
  $q.when(Client.one<User>('users', 1).get()).then((u) => {
    const n: string = u.name;
    void n;
  });
  Client.one<User>('users', 1)
    .get()
    .then((u) => u.put())
    .then((u) => u.name)
    .catch((e) => String(e.status))
    .finally(() => undefined)
    .then((name: string) => name.toUpperCase());
  const slot: angular.IPromise<ClientElement<User>> = Client.one<User>('users', 1).get();
  const list: angular.IPromise<ClientCollection<User>> = Client.all<User>('users').getList();
  const chained: angular.IPromise<string> = Client.one<User>('users', 1).get().then((u) => u.name);
  void [slot, list, chained];
}

export async function awaited(Client: ClientService): Promise<string> {
  const u = await Client.one<User>('users', 1).get().catch(() => null);
  return u ? u.name : '';
}
