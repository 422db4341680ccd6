#!/usr/bin/env node
// The floor of a small request through a subprocess, for test/bench/emacs-bench.el: what any
// engine behind a pipe must pay at least. Reads one URL a line on stdin, GETs it with undici
// (one keep-alive connection, as the engine does) and writes {"status":N,"body":"..."} as one
// line on stdout. No parsing, no JSON-RPC, no presentation: a pipe round trip plus one HTTP
// exchange in Node.
const { Agent, request } = require('undici');

const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
let pending = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  pending += chunk;
  let nl;
  while ((nl = pending.indexOf('\n')) >= 0) {
    const url = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    request(url, { dispatcher })
      .then(async (r) => ({ status: r.statusCode, body: await r.body.text() }))
      .then((reply) => process.stdout.write(`${JSON.stringify(reply)}\n`), (e) => process.stdout.write(`${JSON.stringify({ error: String(e) })}\n`));
  }
});
process.stdin.on('end', () => process.exit(0));
