#!/usr/bin/env node
// The floor of test/bench/grpc.bench.mjs: N unary calls of demo.Echo/Say from a plain
// @grpc/grpc-js script in one process (proto loaded once, one client, calls one after the
// other), as a program that only makes the calls would. No parsing, no reports.
//   node test/bench/floor-grpc.cjs ADDRESS N
const path = require('node:path');
const req = require('node:module').createRequire(path.join(__dirname, '../../engine/package.json'));
const grpc = req('@grpc/grpc-js');
const loader = req('@grpc/proto-loader');

const [address, n] = [process.argv[2], Number(process.argv[3])];
const protos = path.join(__dirname, '../fixtures/grpc');
const def = loader.loadSync(path.join(protos, 'demo.proto'), { includeDirs: [path.join(protos, 'include')], longs: String, enums: String, bytes: String, oneofs: true });
const Echo = grpc.loadPackageDefinition(def).demo.Echo;
const client = new Echo(address, grpc.credentials.createInsecure());
(async () => {
  for (let i = 0; i < n; i++) {
    await new Promise((resolve, reject) => client.Say({ name: `n${i}` }, (e, r) => (e ? reject(e) : resolve(r))));
  }
  client.close();
})();
