/**
 * `sheet run --report html:PATH` (issue 26 item 1): the run as one self-contained HTML page,
 * opened from a CI artifact. No network: inline CSS and a little inline JavaScript, no external
 * script, font or image, and a Content-Security-Policy (`default-src 'none'`) that forbids any
 * fetch. In order: the summary (files, requests, assertions, failures, total time), the
 * failures, a waterfall of when each request started and ended (one row per request, grouped by
 * file, so a `--jobs` run shows its files side by side in time), then every request (failures
 * first) with file:line, status, timing, each assertion (expected and got), the request and
 * response headers and bodies (pretty-printed as `present/` makes them; long ones folded in
 * `<details>`). Credentials are masked by the history file's rule (`session/history.ts`:
 * `maskHeader`, `maskUrl`, SECRET_HEADERS). No templating library: a page this size is a few
 * template literals and one escaping function.
 */
import { websocketHtml } from './report-websocket.js';
import path from 'node:path';
import { maskHeader, maskUrl } from '../session/history.js';
import type { FileResult, RequestResult } from './runner.js';
import { failures, requestName } from './report.js';
import { VERSION } from '../version.js';

/** The run's counts, as `sheet run` prints them and the JSON report's `summary` holds them. */
export interface RunSummary {
  files: number;
  requests: number;
  selected: number;
  passed: number;
  failed: number;
  errors: number;
  transportErrors: number;
  assertions: { passed: number; failed: number };
  /** Requests that passed their transport only on a `--retry`. */
  flaky: number;
  durationMs: number;
}

/** A body longer than this many lines or characters is folded. */
const FOLD_LINES = 30;
const FOLD_CHARS = 4000;

/** Text for HTML content and attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const CSS = `
:root{--ok:#1a7f37;--bad:#cf222e;--err:#9a6700;--muted:#656d76;--line:#d0d7de;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1f2328}
body{margin:0 auto;padding:12px 20px;max-width:1200px}
h1{font-size:18px;margin:0 0 8px}h2{font-size:15px;margin:18px 0 6px}
.summary{display:flex;flex-wrap:wrap;gap:6px 18px;padding:8px 12px;border:1px solid var(--line);border-radius:6px}
.summary .n{font-weight:600}.bad{color:var(--bad)}.ok{color:var(--ok)}.err{color:var(--err)}
.fail-list{margin:0;padding-left:20px}.fail-list li{margin:2px 0}
code,pre{font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;padding:6px 8px;border-radius:4px;overflow:auto;max-height:480px;margin:4px 0}
details.req{border:1px solid var(--line);border-radius:6px;margin:6px 0;padding:4px 8px}
details.req>summary{cursor:pointer}details.req.failed,details.req.error,details.req.transport{border-color:var(--bad)}
table{border-collapse:collapse;margin:4px 0}td,th{border-bottom:1px solid var(--line);padding:2px 8px;text-align:left;vertical-align:top}
.wf{position:relative;border:1px solid var(--line);border-radius:6px;padding:4px 0}
.wf .row{position:relative;height:16px;margin:1px 6px}
.wf .bar{position:absolute;top:2px;height:12px;min-width:2px;border-radius:2px;background:var(--ok)}
.wf .bar.failed,.wf .bar.error,.wf .bar.transport{background:var(--bad)}
.wf .file{font-size:11px;color:var(--muted);padding:2px 6px}
.muted{color:var(--muted)}button{font:inherit;margin-right:6px}
body.only-failures details.req.passed{display:none}
`;

/** Toggles only; nothing fetched, nothing written to the console. */
const JS = `
document.getElementById('only-failures').addEventListener('click', function () {
  document.body.classList.toggle('only-failures');
});
document.getElementById('expand-all').addEventListener('click', function () {
  var all = document.querySelectorAll('details.req');
  var open = !Array.prototype.every.call(all, function (d) { return d.open; });
  Array.prototype.forEach.call(all, function (d) { d.open = open; });
});
`;

function body(text: string | undefined, cut?: boolean): string {
  if (text === undefined || text === '') return '<p class="muted">(no body)</p>';
  const lines = text.split('\n').length;
  const pre = `<pre>${esc(text)}</pre>${cut ? '<p class="muted">(cut: the report keeps the first 64K characters)</p>' : ''}`;
  if (lines <= FOLD_LINES && text.length <= FOLD_CHARS) return pre;
  return `<details><summary>${lines} lines, ${text.length} characters</summary>${pre}</details>`;
}

function headers(hs: [string, string][] | undefined): string {
  if (!hs?.length) return '<p class="muted">(none)</p>';
  return `<pre>${hs.map((h) => esc(maskHeader(h).join(': '))).join('\n')}</pre>`;
}

/** `line 4: expect-status 404: failed, got 200 OK` -> expected `expect-status 404`, got `200 OK`. */
function expectedGot(message: string, name: string, args: string): { expected: string; got: string } {
  const expected = `${name} ${args}`.trim();
  const m = /: (?:failed, got |ok \(|failed: )([\s\S]*?)\)?$/.exec(message);
  return { expected, got: m ? m[1]! : message };
}

function requestBody(r: RequestResult): string {
  const b = r.request?.body;
  if (!b) return body(undefined);
  if (b.encoding === 'base64') return `<p class="muted">(${Math.floor((b.data.length * 3) / 4)} bytes of binary)</p>`;
  let text = b.data;
  try {
    text = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: as sent
  }
  return body(text);
}

function requestSection(r: RequestResult, i: number, t0: number): string {
  const status = r.status !== undefined ? `${r.status} ${r.statusText ?? ''}`.trim() : r.outcome === 'transport' ? '---' : 'ERR';
  const mark = r.outcome === 'passed' ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>';
  const ms = r.durationMs !== undefined ? `${Math.round(r.durationMs)} ms` : '';
  const at = r.startedAt !== undefined ? `started at +${r.startedAt - t0} ms` : 'not sent';
  const asserts = r.assertions.length
    ? `<table><tr><th>line</th><th>assertion</th><th>expected</th><th>got</th><th></th></tr>${r.assertions
        .map((a) => {
          const { expected, got } = expectedGot(a.message, a.name, a.args);
          return `<tr class="${a.passed ? 'ok' : 'bad'}"><td>${a.line}</td><td>${esc(a.name)}</td><td><code>${esc(expected)}</code></td><td><code>${esc(got)}</code></td><td>${a.passed ? 'passed' : 'failed'}</td></tr>`;
        })
        .join('')}</table>`
    : '<p class="muted">(no assertions)</p>';
  const problems = r.outcome === 'passed' ? '' : `<pre class="bad">${esc(failures(r).join('\n'))}</pre>`;
  const url = esc(maskUrl(r.request?.url ?? r.url));
  return `<details class="req ${r.outcome}" id="r${i}" data-outcome="${r.outcome}"${r.outcome === 'passed' ? '' : ' open'}>
<summary>${mark} <b>${esc(status)}</b> ${esc(requestName(r))} <span class="muted">${ms}</span>${r.attempts ? ` <span class="err" data-flaky="${r.flaky ? 'yes' : 'no'}">${r.flaky ? 'flaky: passed' : 'failed'} on attempt ${r.attempts}</span>` : ''}</summary>
${problems}<p><code>${esc(r.file)}:${r.line}</code> · ${at}${ms ? `, took ${ms}` : ''}${r.bytes !== undefined ? `, ${r.bytes} bytes` : ''}${r.stream ? `, ${esc(r.stream.summary)}` : ''}</p>
<h3>Assertions</h3>${asserts}
<h3>Request</h3><pre>${esc(r.request?.method ?? r.method)} ${url}</pre>${headers(r.request?.headers)}${requestBody(r)}
<h3>Response</h3>${r.response ? headers(r.response.headers) + body(r.response.body, r.response.bodyCut) : '<p class="muted">(no response)</p>'}
${r.websocket ? websocketHtml(r.websocket, esc) : ''}</details>`;
}

/**
 * One lane per file (a file's requests run one after the other, so its bars never overlap);
 * files run in parallel (`--jobs`) show as lanes whose bars overlap in time.
 */
function waterfall(files: FileResult[], ids: Map<RequestResult, number>, t0: number, span: number): string {
  const lanes = files
    .map((f) => {
      const bars = f.results
        .filter((r) => r.startedAt !== undefined)
        .map((r) => {
          const left = ((r.startedAt! - t0) / span) * 100;
          const width = ((r.durationMs ?? 0) / span) * 100;
          const label = `${requestName(r)}: +${r.startedAt! - t0} ms, ${Math.round(r.durationMs ?? 0)} ms`;
          return `<a href="#r${ids.get(r)}" class="bar ${r.outcome}" style="left:${left.toFixed(3)}%;width:${width.toFixed(3)}%" title="${esc(label)}"></a>`;
        })
        .join('');
      return `<div class="file">${esc(f.file)}</div><div class="row">${bars}</div>`;
    })
    .join('');
  return `<div class="wf" id="waterfall">${lanes}</div><p class="muted">0 to ${Math.round(span)} ms; hover a bar for its times, click it for the request.</p>`;
}

/**
 * The run as one HTML page.
 * @param files each file's results, in the order given.
 * @param summary the counts `sheet run` printed.
 * @returns the page text (UTF-8), which needs nothing but itself to show.
 */
export function htmlReport(files: FileResult[], summary: RunSummary): string {
  const all = files.flatMap((f) => f.results);
  const idOf = new Map(all.map((r, i) => [r, i]));
  const starts = all.filter((r) => r.startedAt !== undefined);
  const t0 = Math.min(...starts.map((r) => r.startedAt!));
  const end = Math.max(...starts.map((r) => r.startedAt! + (r.durationMs ?? 0)));
  const span = starts.length ? Math.max(1, end - t0) : 1;
  const bad = all.filter((r) => r.outcome !== 'passed');
  const fileErrors = files.filter((f) => f.error);
  const failed = summary.failed + summary.errors + summary.transportErrors;
  const n = (k: string, v: number, cls = '') => `<span data-count="${k}"><span class="n ${cls}">${v}</span> ${k.replace(/-/g, ' ')}</span>`;
  const failList = [
    ...fileErrors.map((f) => `<li class="err"><code>${esc(f.error!.message)}</code> (the file did not run)</li>`),
    ...bad.map((r) => `<li><a href="#r${idOf.get(r)}">${esc(requestName(r))}</a>: <code class="bad">${esc(failures(r).join('; '))}</code></li>`),
  ];
  const ordered = [...bad, ...all.filter((r) => r.outcome === 'passed')];
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>sheet run: ${failed ? `${failed} failed` : 'passed'}</title>
<style>${CSS}</style></head>
<body>
<h1>sheet run <span class="${failed ? 'bad' : 'ok'}">${failed ? `${failed} failed` : 'passed'}</span> <span class="muted">sheet ${esc(VERSION)}</span></h1>
<div class="summary" id="summary">${n('files', summary.files)}${n('requests', summary.requests)}${n('passed', summary.passed, 'ok')}${n('failed', summary.failed, summary.failed ? 'bad' : '')}${n('sheet-errors', summary.errors, summary.errors ? 'err' : '')}${n('transport-errors', summary.transportErrors, summary.transportErrors ? 'err' : '')}${n('flaky', summary.flaky ?? 0, summary.flaky ? 'err' : '')}${n('assertions', summary.assertions.passed + summary.assertions.failed)}${n('assertions-failed', summary.assertions.failed, summary.assertions.failed ? 'bad' : '')}<span><span class="n">${(summary.durationMs / 1000).toFixed(2)} s</span> total</span></div>
${failList.length ? `<h2 class="bad">Failures</h2><ul class="fail-list" id="failures">${failList.join('\n')}</ul>` : ''}
<h2>Waterfall</h2>${waterfall(files, idOf, t0, span)}
<h2>Requests</h2><p><button id="only-failures" type="button">Failures only</button><button id="expand-all" type="button">Expand / fold all</button></p>
${ordered.map((r) => requestSection(r, idOf.get(r)!, t0)).join('\n')}
<p class="muted">${esc(files.map((f) => path.basename(f.file)).join(', '))}</p>
<script>${JS}</script>
</body></html>
`;
}
