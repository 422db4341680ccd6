// Case (b) of the client-lib benchmark in headless Chromium (Debian's /usr/bin/chromium driven
// by puppeteer-core, as test/engine/sheet-run-html.test.ts does): the same page scripts and the
// same oneGetRun (client-lib-measure.mjs) as the jsdom column, in a browser whose URL parsing
// (`$http` resolves every request URL through an anchor element) is native, as users' is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer from 'puppeteer-core';
import { BUNDLE_URL, PAGE_SCRIPTS, alternate, oneGetRun, profileShares } from './client-lib-measure.mjs';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * `rounds` rounds of `runs` runs (after a warm-up) of case (b) for `libs` in one Chromium page,
 * alternating as the jsdom column does, then a CPU profile of 3 more client runs.
 * Returns `{ version, rounds: [{ [lib]: ms, [lib + ' cpu']: ms }], shares: { own, gc } }` (cpu:
 * the renderer's CPU time, Performance.getMetrics ProcessTime, taken around page.evaluate), or `{ error }` when
 * Chromium is missing or fails to start (the bench reports it rather than dying).
 */
export async function chromiumRounds({ libs, rounds, runs, json, n, clientJs, onRound }) {
  if (!fs.existsSync(CHROMIUM)) return { error: `${CHROMIUM} not found (scripts/ensure-deps.sh installs chromium)` };
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'chromium-bench-'));
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', `--user-data-dir=${profile}`],
    });
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    for (const f of PAGE_SCRIPTS) await page.addScriptTag({ content: fs.readFileSync(f, 'utf8') + '\n//# sourceURL=' + path.basename(f) });
    await page.addScriptTag({ content: clientJs });
    await page.addScriptTag({ content: `window.oneGetRun = ${oneGetRun.toString()};` });
    const cdp = await page.createCDPSession();
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const cpuNow = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime').value * 1000;
    const run = (lib) => page.evaluate((l, j, k) => window.oneGetRun(window.angular, l, j, k), lib, json, n);
    // The renderer's CPU time (ProcessTime: every thread of it, GC included) around each run.
    const runCpu = async (lib) => {
      const c0 = await cpuNow();
      const ms = await run(lib);
      return { ms, cpu: (await cpuNow()) - c0 };
    };
    const measured = await alternate(libs, rounds, runs, runCpu, onRound);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    for (let i = 0; i < 3; i++) await run('client');
    const { profile: cpu } = await cdp.send('Profiler.stop');
    return { version: await browser.version(), rounds: measured, shares: profileShares(cpu, BUNDLE_URL) };
  } catch (e) {
    return { error: `Chromium: ${e.message}` };
  } finally {
    await browser?.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
