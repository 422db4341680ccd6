// `sheet run --report html:PATH` (issue 26 item 1; engine/src/sheet-command/report-html.ts) in a real
// headless Chromium (Debian's chromium, driven by puppeteer-core): the page loads from a file
// with no console error and no network request, its counts match the JSON report of the same
// run, a failed request is visible without scrolling, credentials are masked as in the history
// file, long bodies are folded, and a --jobs 2 run shows its two files overlapping in time.
// A screenshot is kept in a temporary directory (its path is printed).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSheet, startApi, tempDir, type Api } from './helpers.js';
// @ts-expect-error plain ESM fixture without types
import { startFaults } from '../fixtures/faults.mjs';
// @ts-expect-error plain ESM fixture without types
import { launchChromium } from '../fixtures/chromium.mjs';

let api: Api;
let faults: { url: string; close(): Promise<void> };
let dir: string;
let chromium: { browser: Browser; close(): Promise<void> };
let browser: Browser;

beforeAll(async () => {
  [api, faults] = await Promise.all([startApi(), startFaults()]);
  dir = tempDir('html-report-');
  chromium = await launchChromium();
  browser = chromium.browser;
}, 60000);

afterAll(async () => {
  await chromium?.close();
  await Promise.all([api?.close(), faults?.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const AUTH = `:base = BASE
#
POST :base/login
Content-Type: application/json
-> jq-set-var :token .token
-> expect-status 200

{"user": "ada", "password": "secret"}
#
GET :base/me
Authorization: Bearer :token
-> expect-status 2xx
-> expect-jq '.user == "ada"'
#
GET :base/big.json?kb=8
-> expect-status 200
#
GET :base/users/1
-> expect-status 404
-> expect-body Ada
`;

describe('sheet run --report html:PATH', () => {
  it('one self-contained page: no console error, no network, counts as the JSON report, a failure visible without scrolling', async () => {
    const a = path.join(dir, 'auth.sheet');
    const b = path.join(dir, 'slow.sheet');
    fs.writeFileSync(a, AUTH.replaceAll('BASE', api.url));
    // Slow requests in both files: with --jobs 2 they overlap in time.
    fs.writeFileSync(a, fs.readFileSync(a, 'utf8') + `#\nGET ${faults.url}/slow-ok\n-> expect-status 200\n`);
    fs.writeFileSync(b, `GET ${faults.url}/slow-ok\n-> expect-status 200\n-> expect-body ok\n#\nGET ${faults.url}/other\n-> expect-status 201\n`);
    // The report's folder out/ is created (issue 36 item 4; test/engine/sheet-run-report-paths.test.ts).
    const run = await runSheet(['run', a, b, '--jobs', '2', '--report', 'html:out/r.html', '--report', 'json:r.json'], { cwd: dir });
    expect(run.code).toBe(1);
    const report = JSON.parse(fs.readFileSync(path.join(dir, 'r.json'), 'utf8'));
    const html = fs.readFileSync(path.join(dir, 'out/r.html'), 'utf8');
    // Nothing from elsewhere: no src/href to another place, no @import, no url(...).
    expect(html).not.toMatch(/<script[^>]+src=|<link\b|@import|url\(|https?:\/\/(?!127\.0\.0\.1)/);
    // The credential masked as history.sheet masks it (headers; the login response's body, which
    // carries the token, is shown as received, as history.sheet keeps bodies).
    const token = report.files[0].results[1].request.headers.find(([n]: [string]) => n === 'Authorization')[1].replace('Bearer ', '');
    expect(token.length).toBeGreaterThan(3);
    expect(html).toContain('Authorization: Bearer ****');
    expect(html).not.toContain(`Bearer ${token}`);

    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 800 });
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('request', (q) => requests.push(q.url()));
    const url = `file://${path.join(dir, 'out/r.html')}`;
    await page.goto(url, { waitUntil: 'networkidle0' });
    // The buttons' script runs without error.
    await page.click('#only-failures');
    expect(await page.$$eval('details.req.passed', (ds) => ds.every((d) => getComputedStyle(d).display === 'none'))).toBe(true);
    await page.click('#only-failures');
    await page.click('#expand-all');
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([url]);

    const count = (k: string) => page.$eval(`[data-count="${k}"] .n`, (e) => Number(e.textContent));
    const s = report.summary;
    expect(await count('files')).toBe(s.files);
    expect(await count('requests')).toBe(s.requests);
    expect(await count('passed')).toBe(s.passed);
    expect(await count('failed')).toBe(s.failed);
    expect(await count('assertions')).toBe(s.assertions.passed + s.assertions.failed);
    expect(await count('assertions-failed')).toBe(s.assertions.failed);
    expect(s.failed).toBe(2);
    expect(await page.$$eval('details.req', (ds) => ds.length)).toBe(s.requests);

    // Above the fold: the failures list and the first failed request's entry in it.
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = await (await page.$('#failures li'))!.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
    expect(await page.$eval('#failures', (e) => e.textContent)).toContain('expect-status 404: failed, got 200');

    // Expected and got of a failed assertion.
    const row = await page.$$eval('details.req.failed tr.bad td', (tds) => tds.map((t) => t.textContent));
    expect(row.join('|')).toMatch(/expect-status 404\|200 OK/);
    // The 8 KB JSON body is pretty-printed and folded.
    expect(await page.$$eval('details.req details > summary', (ss) => ss.map((e) => e.textContent).join(' '))).toMatch(/\d+ lines/);

    // The waterfall: a lane per file; with --jobs 2 the two slow requests overlap in time.
    const lanes = await page.$$eval('#waterfall .row', (rows) => rows.map((row) => [...row.querySelectorAll('.bar')].map((b) => [parseFloat((b as HTMLElement).style.left), parseFloat((b as HTMLElement).style.width)])));
    expect(lanes.length).toBe(2);
    const [slowA] = lanes[0]!.slice(-1);
    const [slowB] = lanes[1]!;
    expect(slowA![0]).toBeLessThan(slowB![0]! + slowB![1]!);
    expect(slowB![0]).toBeLessThan(slowA![0]! + slowA![1]!);

    const shot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-run-html-shot-')), 'report.png');
    await page.screenshot({ path: shot as `${string}.png`, fullPage: false });
    console.log(`HTML report screenshot: ${shot}`);
    expect(fs.statSync(shot).size).toBeGreaterThan(1000);
    await page.close();
  }, 60000);
});
