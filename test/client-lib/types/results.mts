// Compiled (not run) by types.test.ts under node16, nodenext and bundler against the published
// declarations (issue 38 item 5): what the calls resolve to, as an app's own types expect.
import type { ClientElement, ClientElementMethods, ClientService } from 'angular-client-rest';

type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
/** Compiles only when `A` and `B` are the same type. */
declare function exact<A, B>(same: Equals<A, B>): void;

interface User {
  id: number;
  name: string;
}

export async function results(Client: ClientService): Promise<void> {
  // A typed get is a Promise of the type (@types/restangular's IPromise<T> was; TS2741 on Symbol.toStringTag before).
  const one: Promise<User> = Client.one('users', 1).get<User>();
  const list: Promise<User[]> = Client.all('users').getList<User>();
  const typed: Promise<User> = Client.one<User>('users', 1).get();
  // responseType 'blob' / 'arraybuffer': the answer is the Blob / ArrayBuffer (docs/client-lib.md, "Binary answers"),
  // typed or not (no annotation here: get<U>() would infer U from one).
  const png = await Client.one<User>('images', 1).withHttpConfig({ responseType: 'blob' }).get();
  const size: number = png.size;
  exact<typeof png, Blob & ClientElementMethods<any>>(true);
  const raw = await Client.one('images', 1).withHttpConfig({ responseType: 'arraybuffer' }).customGET('raw');
  exact<typeof raw, ArrayBuffer & ClientElementMethods<any>>(true);
  const blob: Promise<Blob> = Client.one('files', 1).withHttpConfig({ responseType: 'blob' }).get();
  // Without a binary responseType the answer stays the (typed) element.
  const user = await Client.one<User>('users', 1).withHttpConfig({ timeout: 5 }).get();
  exact<typeof user, ClientElement<User>>(true);
  // The element methods stay after withHttpConfig.
  const url: string = Client.one('files', 1).withHttpConfig({ responseType: 'blob' }).getClientUrl();
  void [one, list, typed, blob, size, url];
}
