// rememberRequest (engine/src/http-file/named.ts): a named request's response body given as a
// function is decoded at its first read, once, and never when nothing reads it.
import { describe, expect, it } from 'vitest';
import { bodyText, rememberRequest } from '../../engine/src/http-file/named.js';
import type { RequestRecord } from '../../engine/src/resolve/http-vars.js';

describe('rememberRequest', () => {
  const request = { method: 'POST', url: 'http://127.0.0.1/x', headers: [{ name: 'Content-Type', value: 'application/json' }], body: { kind: 'text' as const, text: '{"a":1}' } };
  const response = { status: 200, headers: [{ name: 'Content-Type', value: 'application/json; charset=utf-8' }] };
  const bytes = new TextEncoder().encode('{"token":"é"}');

  it('decodes a body given as a function at its first read, once', () => {
    const requests = new Map<string, RequestRecord>();
    let calls = 0;
    rememberRequest(requests, 'login', request as never, response, () => (calls++, bodyText(bytes, 'application/json; charset=utf-8') ?? ''));
    expect(calls).toBe(0);
    const kept = requests.get('login')!;
    expect(kept.response!.body).toBe('{"token":"é"}');
    expect(kept.response!.body).toBe('{"token":"é"}');
    expect(calls).toBe(1);
    expect(JSON.parse(JSON.stringify(kept))).toEqual({ request: { headers: request.headers, body: '{"a":1}' }, response: { ...response, body: '{"token":"é"}' } });
  });

  it('never decodes a body nothing reads', () => {
    const requests = new Map<string, RequestRecord>();
    let calls = 0;
    rememberRequest(requests, 'a', request as never, response, () => (calls++, ''));
    rememberRequest(requests, 'a', request as never, response, () => (calls++, ''));
    expect(requests.get('a')!.response!.status).toBe(200);
    expect(calls).toBe(0);
  });

  it('keeps a body given as text as it is', () => {
    const requests = new Map<string, RequestRecord>();
    rememberRequest(requests, 'b', request as never, response, 'plain');
    expect(requests.get('b')!.response).toEqual({ ...response, body: 'plain' });
  });
});
