import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve } from 'node:path';
import { ConfigError, displayPath } from '@parley/core';
import type { CalibrationReport } from '@parley/calibration';
import type { Command } from 'commander';
import { parleyIn, type CommandContext, type ProgramContext } from '../program/command-context.js';
import { integerFlag } from '../program/flags.js';
import { useFolderStoreSetting } from '../program/folder-store-setting.js';

interface ShowReportFlags {
  port?: string;
  /** `--no-open` sets it to false. */
  open?: boolean;
}

export function register(program: Command, context: ProgramContext): void {
  program
    .command('show-report')
    .description("serve a run's report.html (or a calibration report page) on 127.0.0.1 and open it in a browser; the latest run by default")
    .argument('[run]', 'a run id (or a unique prefix), a report folder, a report.json or calibration report .json, or an .html file')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .option('--no-open', 'print the address only; open no browser')
    .action(async (run: string | undefined, flags: ShowReportFlags) => context.setExitCode(await showReportCommand(run, flags, context)));
}

/** The page to serve: a file to read at each request, or a page made from a report.json (a run from before report.html existed). */
type ReportPage = { file: string } | { html: string; from: string };

/**
 * Finds the page `parley show-report` serves: an .html file as given; a folder's report.html, or
 * one made from its report.json; a run of the history (id or unique prefix) by its report folder;
 * without an argument, the latest run. ConfigError (exit 2) when there is none.
 */
async function findReportPage(target: string | undefined, cwd: string, parley: string): Promise<ReportPage> {
  if (target !== undefined && existsSync(resolve(cwd, target))) return pageIn(resolve(cwd, target), target);
  const { defaultStorePath, openStore, storeExists } = await import('@parley/store');
  await useFolderStoreSetting(cwd);
  const storePath = defaultStorePath(cwd);
  if (!storeExists(storePath)) throw new ConfigError(target === undefined ? `no runs yet: start one with \`${parley} run <suite>\`` : `no run or report folder "${target}" (there is no run history here)`);
  const store = openStore(storePath);
  try {
    const run = target === undefined ? store.listRuns({ limit: 1 })[0] : store.getRun(target);
    if (run === undefined) throw new ConfigError(target === undefined ? `no runs yet: start one with \`${parley} run <suite>\`` : `no run or report folder "${target}" (${parley} runs list shows the runs)`);
    // The history has the run's rows; its folder is files, which a team store's other machines do not have.
    if (!existsSync(run.out_dir)) {
      throw new ConfigError(
        `run ${run.id}'s report folder ${run.out_dir} is not on this machine (removed, or written by another machine sharing the team store): ` +
          `\`${parley} runs show ${run.id}\` lists its results; give show-report that folder (its CI artifact) to see the report`,
      );
    }
    return pageIn(run.out_dir, run.id);
  } finally {
    store.close();
  }
}

async function pageIn(path: string, shown: string): Promise<ReportPage> {
  if (statSync(path).isFile()) {
    if (extname(path) === '.html') return { file: path };
    if (extname(path) !== '.json') throw new ConfigError({ file: path, message: 'not a report: give a run id, a report folder, report.json or an .html page' });
  }
  const folder = statSync(path).isFile() ? resolve(path, '..') : path;
  if (existsSync(join(folder, 'report.html'))) return { file: join(folder, 'report.html') };
  const json = statSync(path).isFile() ? path : join(folder, 'report.json');
  if (!existsSync(json)) throw new ConfigError({ file: folder, message: `no report.html or report.json in ${shown}` });
  if (isCalibrationReport(json)) return calibrationPage(json);
  const { renderRunHtml } = await import('@parley/html-report');
  const { readReportFile } = await import('@parley/reports');
  return { html: renderRunHtml(readReportFile(json)), from: json };
}

/** A calibration report (`calibration/reports/<date>.json`) rather than a run's report.json: it has a gate and comparisons, no run id. */
function isCalibrationReport(file: string): boolean {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return false;
  }
  return typeof data === 'object' && data !== null && !('run_id' in data) && 'gate' in data && 'comparisons' in data;
}

/**
 * A calibration report's page: the `<date>.html` written beside it, or, for a report without one
 * (written before the pages existed), a page made from the report alone, without the items behind
 * each cell (they come from the set and the judge session, which `parley calibrate report` reads).
 */
async function calibrationPage(file: string): Promise<ReportPage> {
  const html = file.replace(/\.json$/, '.html');
  if (existsSync(html)) return { file: html };
  const { readStoredReport } = await import('@parley/calibration');
  const read = readStoredReport(file);
  if ('message' in read) throw new ConfigError({ file, message: read.message });
  const { renderCalibrationHtml } = await import('@parley/html-report');
  const made = 'this page was made from the report file alone; the page `parley calibrate report` writes beside it lists them';
  return { html: renderCalibrationHtml(read.report as unknown as CalibrationReport, made), from: file };
}

/**
 * Serves `page` at `/` on 127.0.0.1 (every other path is 404) and resolves with the server once it
 * listens. A file is read at each request, so a reload shows a report written since.
 */
async function serveReportPage(page: ReportPage, port: number): Promise<Server> {
  // Loaded here, not with the command: importing node:http costs every `parley` start-up tens of ms.
  const { createServer } = await import('node:http');
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if ((request.method !== 'GET' && request.method !== 'HEAD') || (path !== '/' && path !== '/report.html')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
      return;
    }
    let body: string;
    try {
      body = 'file' in page ? readFileSync(page.file, 'utf8') : page.html;
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`cannot read the report: ${error instanceof Error ? error.message : String(error)}\n`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolvePromise(server));
  });
}

/** A browser can be opened: a terminal's user with a display (any on macOS and Windows; X11 or Wayland on Linux). */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: NodeJS.Platform, terminal: boolean): boolean {
  if (!terminal) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/**
 * `parley show-report [RUN|DIR|FILE]`: serves the report page on 127.0.0.1, prints its address,
 * opens it in the default browser when a person at a terminal with a display runs it, and stops
 * on Ctrl-C.
 */
async function showReportCommand(target: string | undefined, flags: ShowReportFlags, context: CommandContext): Promise<number> {
  const port = flags.port === undefined ? 0 : integerFlag('--port', flags.port, 0);
  const page = await findReportPage(target, context.cwd, parleyIn(context));
  let server: Server;
  try {
    server = await serveReportPage(page, port);
  } catch (error) {
    throw new ConfigError(`cannot serve on 127.0.0.1:${port}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const shown = displayPath('file' in page ? page.file : page.from, context.cwd);
  context.output.out(`Serving ${shown} at ${url}\nPress Ctrl-C to stop.\n`);
  if (flags.open !== false && canOpenBrowser(context.env, process.platform, context.output.terminal)) openBrowser(url, context);
  await new Promise<void>((resolveWait) => {
    if (context.signal === undefined) return; // Without a signal it serves until the process ends.
    if (context.signal.aborted) resolveWait();
    else context.signal.addEventListener('abort', () => resolveWait(), { once: true });
  });
  server.closeAllConnections();
  await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
  return 0;
}

function openBrowser(url: string, context: CommandContext): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  const child = spawn(command, args, { stdio: 'ignore', detached: true });
  child.on('error', () => context.output.err(`could not open a browser (${command}): open ${url} yourself\n`));
  child.unref();
}
