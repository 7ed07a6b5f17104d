import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyExample, REPO_ROOT } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';
import { canOpenBrowser } from './show-report.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');
const folders: string[] = [];
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** Starts `parley show-report ARGS` and resolves with the address it prints. */
function showReport(args: string[], cwd: string): Promise<{ child: ChildProcessWithoutNullStreams; url: string; exit: Promise<{ code: number | null; stderr: string }> }> {
  const child = spawn(process.execPath, [BIN, 'show-report', ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(stdout);
      if (found) resolve({ child, url: found[1]!, exit });
    });
    void exit.then(({ code }) => reject(new Error(`show-report exited ${code} before serving: ${stdout}${stderr}`)));
  });
}

/** The page data a report.html carries (the library loaded as the CLI loads it: lazily). */
async function pageRunId(html: string): Promise<string> {
  const { readEmbeddedData } = await import('@parley/html-report');
  return (readEmbeddedData(html).data as { header: { run_id: string } }).header.run_id;
}

describe('parley show-report', () => {
  it('serves the latest run’s report.html on 127.0.0.1, nothing else, and stops on Ctrl-C', async () => {
    const dir = copyExample('booking');
    folders.push(dir);
    const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: dir });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('report.html');
    const written = readFileSync(join(dir, 'out', 'report.html'), 'utf8');
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { run_id: string; results: unknown[] };
    expect(await pageRunId(written)).toBe(report.run_id);

    const served = await showReport([], dir);
    const page = await fetch(served.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toBe(written);
    expect((await fetch(`${served.url}../etc/passwd`)).status).toBe(404);
    expect((await fetch(`${served.url}out/report.json`)).status).toBe(404);
    served.child.kill('SIGINT');
    const { code, stderr } = await served.exit;
    expect(code).toBe(0);
    expect(stderr).toContain('stopping the report server');
  });

  it('serves a run by id, and a page made from report.json when a run has no report.html', async () => {
    const dir = copyExample('booking');
    folders.push(dir);
    expect((await parleyAsync(['run', '.', '--out', 'out'], { cwd: dir })).status).toBe(0);
    const runId = (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { run_id: string }).run_id;
    unlinkSync(join(dir, 'out', 'report.html'));
    const served = await showReport([runId.slice(0, 17), '--no-open'], dir);
    const html = await (await fetch(served.url)).text();
    expect(await pageRunId(html)).toBe(runId);
    expect(existsSync(join(dir, 'out', 'report.html'))).toBe(false);
    served.child.kill('SIGINT');
    expect((await served.exit).code).toBe(0);
  });

  it('serves a calibration report .json: the committed one from before pages and selected_by, as a page made from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-show-calibration-'));
    folders.push(dir);
    const committed = join(REPO_ROOT, 'calibration/reports/2026-11-26.json');
    copyFileSync(committed, join(dir, '2026-11-26.json'));
    const served = await showReport(['2026-11-26.json', '--no-open'], dir);
    const html = await (await fetch(served.url)).text();
    const { readEmbeddedData } = await import('@parley/html-report');
    const data = readEmbeddedData(html).data as { kind: string; report: { session: { id: string } }; problem?: string };
    expect(data.kind).toBe('calibration');
    expect(data.report.session.id).toBe((JSON.parse(readFileSync(committed, 'utf8')) as { session: { id: string } }).session.id);
    expect(data.problem).toContain('made from the report file alone');
    served.child.kill('SIGINT');
    expect((await served.exit).code).toBe(0);
    // A broken one is named with its problem, exit 2.
    writeFileSync(join(dir, '2026-11-27.json'), JSON.stringify({ schema_version: 1, gate: {}, comparisons: [] }));
    const broken = await parleyAsync(['show-report', '2026-11-27.json', '--no-open'], { cwd: dir });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/2026-11-27\.json.*not a calibration report/);
  });

  it('says there is nothing to show, exit 2, without a run', async () => {
    const dir = copyExample('booking');
    folders.push(dir);
    const result = await parleyAsync(['show-report'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('no runs yet');
    const missing = await parleyAsync(['show-report', 'nope'], { cwd: dir });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no run or report folder "nope"');
  });

  it("a stored run whose report folder is not here (removed, or another machine's run in a team store): exit 2 saying so, not an internal error", async () => {
    const dir = copyExample('booking');
    folders.push(dir);
    const run = await parleyAsync(['run', '.', '--out', 'elsewhere'], { cwd: dir });
    expect(run.status, run.stderr).toBe(0);
    const runId = (JSON.parse(readFileSync(join(dir, 'elsewhere', 'report.json'), 'utf8')) as { run_id: string }).run_id;
    rmSync(join(dir, 'elsewhere'), { recursive: true });
    for (const args of [[runId], []]) {
      const result = await parleyAsync(['show-report', ...args, '--no-open'], { cwd: dir });
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(
        `error: run ${runId}'s report folder ${join(dir, 'elsewhere')} is not on this machine (removed, or written by another machine sharing the team store): ` +
          `\`parley runs show ${runId}\` lists its results; give show-report that folder (its CI artifact) to see the report\n`,
      );
    }
  });
});

describe('canOpenBrowser', () => {
  it('opens one only for a terminal with a display', () => {
    expect(canOpenBrowser({ DISPLAY: ':0' }, 'linux', true)).toBe(true);
    expect(canOpenBrowser({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', true)).toBe(true);
    expect(canOpenBrowser({}, 'linux', true)).toBe(false);
    expect(canOpenBrowser({ DISPLAY: ':0' }, 'linux', false)).toBe(false);
    expect(canOpenBrowser({}, 'darwin', true)).toBe(true);
    expect(canOpenBrowser({}, 'darwin', false)).toBe(false);
  });
});
