/**
 * What a request's hooks produce: the `run-hook` forms, the variables `jq-set-var` set, the
 * warnings and the assertion results (docs/sheet-format.md, "Hooks" and "Assertions"). The
 * types live here, with the hooks that fill them; emacs/protocol.ts re-exports them as part of
 * the protocol (docs/protocol.md), so nothing in hooks/ imports from emacs/.
 */
import type { Header } from '../model.js';

/** What the request's hooks produced. */
export interface HookResults {
  /** `run-hook` forms, to be evaluated by the client in the response buffer, in order. */
  runHooks: string[];
  /**
   * Variables set by `jq-set-var`, and in `.http` files first those the response handlers set
   * with `client.global.set` (all already stored as overrides in the engine).
   */
  setVars: { name: string; value: string }[];
  /**
   * Problems that did not stop the request, with their sheet line: parse warnings of the
   * request (`ignored-lines`) first, then references substitution left after the pass limit
   * (`vars-cycle`, `vars-unresolved`: the request was sent with them as written), then hook
   * warnings (`unknown-hook`, `jq-error`, `bad-argument`) in sheet order, then
   * `cookie-jar-unwritable` (the request's line) when the cookies could not be saved to
   * `cookieJarFile`.
   */
  warnings: { line: number; message: string; code: string }[];
  /**
   * The results of the request's assertion hooks (`-> expect-status 200`, ...; sheet format
   * doc, "Assertions"), in sheet order; empty when it has none.
   */
  assertions: Assertion[];
}

/** One assertion hook's result (docs/sheet-format.md, "Assertions"). */
export interface Assertion {
  /** The hook's sheet line. */
  line: number;
  /** The hook name, e.g. `expect-status`. */
  name: string;
  /** Its arguments as written, e.g. `2xx`. */
  args: string;
  passed: boolean;
  /**
   * One line: `line N: expect-status 200: ok (200 OK)`, or on failure the expectation and what
   * came back (`failed, got 404 Not Found: "<first 200 bytes of the body>"`).
   */
  message: string;
}

/** The part of an exchange an assertion looks at. */
export interface ExpectContext {
  status: number;
  statusText: string;
  headers: Header[];
  /** The response body as text (decoded by its charset). */
  bodyText: string;
  /** The exchange's duration in ms. */
  durationMs: number;
  /** A streamed response (session/stream.ts): its number of events, how it ended, the kept events' data. */
  stream?: { count: number; ended: string; data: string[] };
}
