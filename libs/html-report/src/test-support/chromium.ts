import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

/**
 * The browser tests drive Debian's `chromium` package (CI installs it, see .ci/run) through
 * playwright-core, which downloads no browser of its own. `PARLEY_CHROMIUM` names another binary.
 */
export function chromiumPath(): string | undefined {
  const candidates = [process.env['PARLEY_CHROMIUM'], '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter((path): path is string => Boolean(path));
  return candidates.find((path) => existsSync(path));
}

export const NO_CHROMIUM = 'chromium is not installed (apt-get install -y chromium, or set PARLEY_CHROMIUM): the browser tests of the HTML report are skipped';

async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error(NO_CHROMIUM);
  // --no-sandbox: CI and these sessions run as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
}

/** What a page did that a self-contained report must not: requests other than its own file, console errors, uncaught errors. */
export interface PageProblems {
  requests: string[];
  consoleErrors: string[];
}

/**
 * A browser context that records every request and aborts any that is not the report file
 * itself (so a page that tried to fetch something would also fail to draw it), and every
 * console error and uncaught exception of its pages.
 */
export async function guardedContext(browser: Browser, options: { colorScheme?: 'light' | 'dark'; width?: number; height?: number } = {}): Promise<{ context: BrowserContext; problems: PageProblems }> {
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
    serviceWorkers: 'block',
  });
  const problems: PageProblems = { requests: [], consoleErrors: [] };
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    // The test's own navigations to report files are the only loads allowed.
    if (url.startsWith('file://') && route.request().isNavigationRequest()) {
      await route.continue();
    } else {
      if (!problems.requests.includes(url)) problems.requests.push(url);
      await route.abort();
    }
  });
  context.on('page', (page) => watch(page, problems));
  return { context, problems };
}

function watch(page: Page, problems: PageProblems): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    if (!(url.startsWith('file://') && request.isNavigationRequest()) && !problems.requests.includes(url)) problems.requests.push(url);
  });
}

/**
 * A describe block's browser, called in its body: Chromium and a temporary folder before its tests,
 * closed and removed after them, and every page `newPage` made checked then to have fetched nothing
 * and logged no error.
 */
export function browserForSuite(folderPrefix: string): { readonly dir: string; readonly browser: Browser; newPage(colorScheme?: 'light' | 'dark'): Promise<Page> } {
  let dir: string | undefined;
  let browser: Browser | undefined;
  const problems: PageProblems[] = [];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), folderPrefix));
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    for (const seen of problems) {
      expect(seen.requests).toEqual([]);
      expect(seen.consoleErrors).toEqual([]);
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir!;
    },
    get browser() {
      return browser!;
    },
    async newPage(colorScheme = 'light') {
      const guarded = await guardedContext(browser!, { colorScheme });
      problems.push(guarded.problems);
      const page = await guarded.context.newPage();
      // A missing element fails in seconds with its selector, not at the test's timeout.
      page.setDefaultTimeout(10_000);
      return page;
    },
  };
}

/** Opens a report file (with an optional `#/…` fragment) and waits until its first screen is drawn. */
export async function openReport(page: Page, file: string, fragment = ''): Promise<void> {
  await page.goto(`file://${file}${fragment}`);
  await page.waitForSelector('html[data-ready="true"]');
}

/** axe-core's violations of impact serious or critical on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<Array<{ id: string; impact: string; help: string; targets: string[] }>> {
  const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol: the report's Content-Security-Policy (hash-only
  // scripts) would refuse an injected <script>, and must not be loosened for the test.
  await page.evaluate(`${source};0`);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<{ violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node) => node.target.join(' ')) }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

/** The text of the first element `selector` finds (waiting for it). */
export async function textOf(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? '';
}
