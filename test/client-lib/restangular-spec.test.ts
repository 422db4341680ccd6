// Four cases of Restangular 1.6.1's own spec (mgonto/restangular, test/restangularSpec.js),
// renamed restangular -> client and written for vitest (issue 23 item 1). Each is the spec's
// test with its data; on AngularJS 1.5 and 1.8.
import { describe, it, expect, vi } from 'vitest';
import has from 'lodash/has';
import { ng, angular } from './helpers/ng';

const accountsModel = () => [
  { id: 0, user: 'Martin ', amount: 42, transactions: [] },
  { id: 1, user: 'Paul', amount: 3.1416, transactions: [{ from: 'Martin', amount: 3, id: 0 }, { from: 'Anonymous', amount: 1, id: 1 }] },
];

describe('Restangular spec: Local data', () => {
  it('Should clientize a collection OK: the methods are own properties, as lodash _.has sees them', () => {
    const t = ng();
    const collection: any = angular.copy(accountsModel());
    t.Client.clientizeCollection(null, collection, 'accounts');
    expect(has(collection, 'get')).toBe(true);
    expect(has(collection[0], 'get')).toBe(true);
    expect(collection.getClientUrl()).toBe('/accounts');
    expect(collection[0].getClientUrl()).toBe('/accounts/0');
    // Own, yet not enumerable: the data alone goes to JSON and Object.keys.
    expect(Object.keys(collection[0])).toEqual(['id', 'user', 'amount', 'transactions']);
    expect(JSON.parse(JSON.stringify(collection))).toEqual(accountsModel());
  });

  it('clientizeElement gives own methods too; elements made by one() keep the shared prototype', () => {
    const t = ng();
    const local: any = { id: 4 };
    t.Client.clientizeElement(null, local, 'accounts');
    expect(has(local, 'get')).toBe(true);
    expect(local.getClientUrl()).toBe('/accounts/4');
    expect(Object.keys(local)).toEqual(['id']);
    expect(Object.getOwnPropertyNames(t.Client.one('accounts', 1))).toEqual(['id']);
  });
});

describe('Restangular spec: Interceptors', () => {
  it('Should add multiple error interceptors for a single get too: both see status 404', () => {
    const t = ng();
    const urlRegex = /\/error\/(\d{3})/;
    // As the spec's backend: the status is the string taken from the URL.
    t.$httpBackend.whenGET(urlRegex).respond((m: string, url: string) => [url.match(urlRegex)![1], {}, '']);
    t.$httpBackend.expectGET('/error/404');
    const seen: number[] = [];
    const first = vi.fn((response: any) => void seen.push(Number(response.status)));
    const second = vi.fn((response: any) => void seen.push(Number(response.status)));
    t.Client.addErrorInterceptor(first);
    t.Client.addErrorInterceptor(second);
    const success = vi.fn();
    let rejected: any;
    t.Client.one('error', 404).get().then(success).catch((e: any) => (rejected = e));
    t.$httpBackend.flush();
    expect(success).not.toHaveBeenCalled();
    expect(first).toHaveBeenCalled();
    expect(second).toHaveBeenCalled();
    expect(seen).toEqual([404, 404]);
    expect([rejected.status, rejected.code]).toEqual([404, 'HTTP_ERROR']);
  });
});

describe('Restangular spec: Transformers', () => {
  it('Should decorate element both on server and local by default', () => {
    const t = ng((p) =>
      p.extendModel('accounts', (account: any) => {
        account.extended = () => true;
        return account;
      }),
    );
    t.$httpBackend.whenGET('/accounts/1').respond(accountsModel()[1]);
    let fromServer: any;
    t.Client.one('accounts', 1).get().then((a: any) => (fromServer = a));
    const local: any = {};
    t.Client.clientizeElement(null, local, 'accounts');
    expect(local.extended).toBeDefined();
    const coll: any = [{ id: 1 }];
    t.Client.clientizeCollection(null, coll, 'accounts');
    expect(coll[0].extended).toBeDefined();
    t.$httpBackend.flush();
    expect(fromServer.extended).toBeDefined();
  });
});

describe('Restangular spec: COPY', () => {
  it('should copy an object and "this" should reference the copied object', () => {
    const t = ng();
    const model = accountsModel();
    const copiedAccount: any = t.Client.copy(model[0]);
    let that: any;
    copiedAccount.user = 'Copied string';
    expect(copiedAccount).not.toBe(model[0]);
    expect(model[0].user).toBe('Martin ');
    vi.spyOn(copiedAccount, 'getClientUrl').mockImplementation(function (this: any) {
      that = this;
    });
    copiedAccount.getClientUrl();
    expect(that).toBe(copiedAccount);
  });

  it('a copy of an element keeps its route and URL, and its methods see the copy', () => {
    const t = ng();
    const elem: any = t.Client.one('accounts', 3);
    const copy: any = t.Client.copy(elem);
    expect(has(copy, 'getClientUrl')).toBe(true);
    expect(copy.getClientUrl()).toBe('/accounts/3');
    copy.id = 8;
    expect(copy.getClientUrl()).toBe('/accounts/8');
    expect(elem.getClientUrl()).toBe('/accounts/3');
  });
});
