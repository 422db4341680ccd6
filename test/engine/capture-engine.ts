// One test file's raw capture server on 127.0.0.1 (test/fixtures/http/capture-server.mjs) and
// engine over a real stdio pipe, started before its tests and stopped after, with a temporary
// directory removed after them: what the wire tests of exports (curl, code, GraphQL) share.
import fs from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { startCapture } from '../fixtures/http/capture-server.mjs';
import { spawnEngine, tempDir, type EngineProcess } from './helpers.js';

/** The running parts; read them inside tests (they are set in `beforeAll`). */
export interface CaptureAndEngine {
  readonly engine: EngineProcess;
  readonly capture: Awaited<ReturnType<typeof startCapture>>;
  readonly dir: string;
}

/** Register the `beforeAll` / `afterAll` of a capture server, an initialized engine (no Lisp) and a temporary directory. */
export function captureAndEngine(): CaptureAndEngine {
  const parts = { dir: tempDir() } as { engine: EngineProcess; capture: Awaited<ReturnType<typeof startCapture>>; dir: string };
  beforeAll(async () => {
    parts.capture = await startCapture();
    parts.engine = spawnEngine();
    await parts.engine.conn.sendRequest('initialize', { clientName: 'test', lisp: false });
  });
  afterAll(async () => {
    await parts.engine.close();
    await parts.capture.close();
    fs.rmSync(parts.dir, { recursive: true, force: true });
  });
  return parts;
}
