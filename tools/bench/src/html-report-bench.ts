/**
 * `npm run bench:html -- [--cases 10000] [--runs 3] [--keep]`: how large `report.html` is for a
 * run of many cases, how long it takes to write, and how long headless Chromium takes to show its
 * first screen (the run header and the first rows of the case list) and to open a case.
 *
 * The run is the booking example replayed by the real CLI (8 scenarios with judges, per-message
 * scores, tool calls and one failure), its results repeated until there are `--cases` of them:
 * each copy has its own id and its messages and reasons carry the copy's number, so no two cases
 * are byte-identical. The page is opened from file:// in Debian's `chromium`; the first screen is
 * the page's own `parley-first-screen` performance mark (milliseconds since navigation start).
 * Exits 1 when the file is over 25 MB or the first screen takes over 2 s, 2 when it cannot run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { writeRunHtml } from '@parley/html-report';
import { readReportFile, type ReportResult, type RunReport } from '@parley/reports';

const HTML_SIZE_TARGET_BYTES = 25_000_000;
const FIRST_SCREEN_TARGET_MS = 2_000;

const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
const PARLEY_BIN = join(REPO_ROOT, 'apps', 'cli', 'bin', 'parley.js');

/** The report of `count` cases made from `base`'s results, each copy renamed and its text numbered. */
function scaledReport(base: RunReport, count: number): RunReport {
  const results: ReportResult[] = [];
  for (let index = 0; results.length < count; index += 1) {
    const source = base.results[index % base.results.length]!;
    const copy = Math.floor(index / base.results.length);
    const mark = (text: string) => `${text} [${copy}]`;
    results.push({
      ...source,
      scenario_id: `${source.scenario_id}_${String(copy).padStart(5, '0')}`,
      reason: mark(source.reason),
      metrics: source.metrics.map((metric) => ({ ...metric, reason: mark(metric.reason) })),
      ...(source.transcript
        ? { transcript: { ...source.transcript, turns: source.transcript.turns.map((turn) => ({ ...turn, content: turn.content === '' ? '' : mark(turn.content) })) } }
        : {}),
    });
  }
  const counts = { pass: 0, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 };
  for (const result of results) counts[result.status] += 1;
  return { ...base, counts, results };
}

function flag(args: readonly string[], name: string, fallback: number): number {
  const index = args.indexOf(name);
  if (index < 0) return fallback;
  const value = Number(args[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a whole number above 0`);
  return value;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const cases = flag(args, '--cases', 10_000);
  const runs = flag(args, '--runs', 3);
  const executablePath = [process.env['PARLEY_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path) => path !== undefined && existsSync(path));
  if (executablePath === undefined) {
    process.stderr.write('bench:html: chromium is not installed (apt-get install -y chromium, or set PARLEY_CHROMIUM)\n');
    return 2;
  }
  const dir = mkdtempSync(join(tmpdir(), 'parley-bench-html-'));
  try {
    const baseDir = join(dir, 'base');
    try {
      execFileSync(process.execPath, [PARLEY_BIN, 'run', join(REPO_ROOT, 'examples/booking'), '--out', baseDir], { cwd: dir, stdio: 'pipe', env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' } });
    } catch (error) {
      if ((error as { status?: number }).status !== 1) throw error;
    }
    const report = scaledReport(readReportFile(baseDir), cases);
    const outDir = join(dir, 'out');
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const file = writeRunHtml(outDir, report);
    const writeMs = performance.now() - started;
    const writeCpu = process.cpuUsage(cpuBefore);
    const writeCpuMs = (writeCpu.user + writeCpu.system) / 1000;
    const bytes = statSync(file).size;
    const reportJsonBytes = Buffer.byteLength(JSON.stringify(report));

    const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
    const firstScreens: number[] = [];
    const openCase: number[] = [];
    try {
      for (let run = 0; run < runs; run += 1) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const page = await context.newPage();
        await page.goto(`file://${file}`);
        await page.waitForSelector('html[data-ready="true"]', { timeout: 60_000 });
        firstScreens.push(await page.evaluate<number>("performance.getEntriesByName('parley-first-screen')[0].startTime"));
        const clicked = performance.now();
        await page.locator('.case-table tbody a').first().click();
        await page.waitForSelector('.expectations', { timeout: 60_000 });
        openCase.push(performance.now() - clicked);
        await context.close();
      }
    } finally {
      await browser.close();
    }
    const firstScreen = median(firstScreens);
    const sizeVerdict = bytes <= HTML_SIZE_TARGET_BYTES ? 'ok' : 'over';
    const screenVerdict = firstScreen <= FIRST_SCREEN_TARGET_MS ? 'ok' : 'over';
    const mb = (value: number) => `${(value / 1_000_000).toFixed(1)} MB`;
    process.stdout.write(
      [
        `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), Node ${process.versions.node}, ${executablePath}; median of ${runs} page loads`,
        `cases:                  ${cases.toLocaleString('en-US')} (the booking example's 8 results, repeated)`,
        `report.json (as JSON):  ${mb(reportJsonBytes)}`,
        `report.html:            ${mb(bytes)}  (target ≤ ${mb(HTML_SIZE_TARGET_BYTES)}: ${sizeVerdict})`,
        `write report.html:      ${(writeMs / 1000).toFixed(2)} s wall, ${(writeCpuMs / 1000).toFixed(2)} s CPU`,
        `first screen:           ${Math.round(firstScreen)} ms  (target ≤ ${FIRST_SCREEN_TARGET_MS} ms: ${screenVerdict}; runs ${firstScreens.map((value) => Math.round(value)).join(', ')})`,
        `open the first case:    ${Math.round(median(openCase))} ms`,
        '',
      ].join('\n'),
    );
    return sizeVerdict === 'ok' && screenVerdict === 'ok' ? 0 : 1;
  } finally {
    if (!args.includes('--keep')) rmSync(dir, { recursive: true, force: true });
    else process.stderr.write(`bench:html: kept ${dir}\n`);
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench:html: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
