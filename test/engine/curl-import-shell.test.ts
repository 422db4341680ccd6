// Issue 27, item 2: what API docs paste around a curl command (a pipe to jq, a redirection, a
// list) is recognised, the curl part imported and what was dropped named; and a header the
// engine cannot send (Transfer-Encoding, Expect, Keep-Alive, Upgrade, an odd Connection) is
// left out with a note instead of a request that fails at send. On the wire (./curl-wire.ts):
// real curl and the imported request, through one raw capture server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlToSheet } from '../../engine/src/curl/from-curl.js';
import { cutShellTail } from '../../engine/src/curl/shell-tail.js';
import { dropUnsendable } from '../../engine/src/curl/unsendable.js';
import { wireBench } from './curl-wire.js';

describe('a pasted shell tail', () => {
  it.each([
    ['a pipe to jq', `curl -s http://h/x | jq .`, 'curl -s http://h/x', '| jq .'],
    ['a redirection', `curl http://h/x > out.json`, 'curl http://h/x', '> out.json'],
    ['stderr redirected, then a pipe', `curl http://h/x 2>/dev/null | jq -r '.a | .b'`, 'curl http://h/x', `2>/dev/null | jq -r '.a | .b'`],
    ['a list', `curl -d 'a;b' http://h/x && echo done`, `curl -d 'a;b' http://h/x`, '&& echo done'],
    ['a background &', `curl http://h/x &`, 'curl http://h/x', '&'],
    ['operators inside quotes stay', `curl -d "x | y > z" $'a\\'|' http://h/x`, `curl -d "x | y > z" $'a\\'|' http://h/x`, undefined],
    ['a continuation before the pipe', `curl http://h/x \\\n  | jq .`, 'curl http://h/x', '| jq .'],
  ])('%s', (_, line, command, dropped) => {
    const t = cutShellTail(line);
    expect(t.command.replace(/[\s\\]+$/, '')).toBe(command);
    expect(t.dropped).toBe(dropped);
  });

  it('the import takes the curl part and notes the rest (not a change of the request)', () => {
    const out = curlToSheet(`curl -s 'http://h/x?a=1' -H 'Accept: application/json' | jq '.items[]'`);
    expect(out.text).toBe('GET http://h/x?a=1\nAccept: application/json\n');
    expect(out.warnings).toEqual([{ message: expect.stringMatching(/^\| jq '\.items\[\]': not part of the curl command/), differs: false }]);
  });
});

describe('headers the engine cannot send', () => {
  it.each([
    ['Transfer-Encoding: chunked', false],
    ['Transfer-Encoding: gzip, chunked', true],
    ['Expect: 100-continue', false],
    ['Expect: something', true],
    ['Keep-Alive: timeout=5', true],
    ['Upgrade: websocket', true],
    ['Connection: upgrade', true],
  ])('%s is left out (differs: %s)', (header, differs) => {
    const i = header.indexOf(':');
    const { kept, left } = dropUnsendable([['Accept', 'a/b'], [header.slice(0, i), header.slice(i + 2)]]);
    expect(kept).toEqual([['Accept', 'a/b']]);
    expect(left).toEqual([{ header: [header.slice(0, i), header.slice(i + 2)], message: expect.stringMatching(/not written/), differs }]);
  });

  it.each(['Connection: close', 'Connection: keep-alive', 'TE: trailers', 'Host: other.example'])('%s is kept', (header) => {
    const i = header.indexOf(':');
    expect(dropUnsendable([[header.slice(0, i), header.slice(i + 2)]]).left).toEqual([]);
  });
});

describe('on the wire', () => {
  let bench: Awaited<ReturnType<typeof wireBench>>;
  beforeAll(async () => {
    bench = await wireBench();
  });
  afterAll(() => bench.close());

  it.each([
    ['-H Transfer-Encoding: chunked with a body', `curl -H 'Transfer-Encoding: chunked' -H 'Content-Type: text/plain' --data-binary 'hello' http://example.org/chunked`],
    ['a redirection and a pipe', `curl -s -H 'Accept: application/json' 'http://example.org/p?x=1' 2>/dev/null | jq .`],
    ['> out.json', `curl -d a=1 http://example.org/o > out.json`],
  ])('%s: imported, sent as curl sends it (the same request)', async (_, command) => {
    const r = await bench.run(command);
    expect(r.importExit).not.toBe(2);
    expect(r.runExit).toBe(0);
    expect(r.differences).toEqual([]);
  });
});
