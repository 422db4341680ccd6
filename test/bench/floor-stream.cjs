#!/usr/bin/env node
// The floor of a stream's latency through Node, for test/bench/streams.bench.mjs: what any
// front end on Node and undici pays at least. GETs the URL given as its argument with undici's
// dispatcher API (as engine/src/http/dispatch.ts does) and writes each body chunk to stdout as
// it arrives; no event splitting, no routing, no headers kept.
const { Agent } = require('undici');

const url = new URL(process.argv[2]);
const agent = new Agent();
agent.dispatch(
  { origin: url.origin, path: url.pathname + url.search, method: 'GET', headers: [] },
  {
    onConnect() {},
    onHeaders: () => true,
    onData: (chunk) => process.stdout.write(chunk),
    onComplete: () => void agent.close(),
    onError: (e) => {
      process.stderr.write(`${e.message}\n`);
      process.exitCode = 1;
    },
  },
);
