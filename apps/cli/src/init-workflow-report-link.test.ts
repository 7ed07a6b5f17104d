import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './test-support/example-copy.js';
import { parleyAsync } from './test-support/parley-process.js';

/**
 * The workflow `parley init --github` writes links the uploaded report folder from the job summary
 * and says how to open it: the `parley show-report` command it names must serve that folder's
 * report.html once the artifact is unzipped in the project. (It used to say `parley show-report` with
 * no folder, which looks for the latest run in the store and exits 2: "no runs yet".)
 */

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** Starts the binary; resolves with the address it serves, or rejects with its output when it exits first. */
function serve(args: string[], cwd: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, ...args, '--no-open'], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } });
  let output = '';
  return new Promise((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output);
      if (found) {
        child.kill('SIGINT');
        resolve(found[1]!);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => reject(new Error(`${args.join(' ')} exited ${code} before serving: ${output}`)));
  });
}

describe('the workflow parley init --github writes', () => {
  it('names a show-report command that opens the unzipped report artifact', async () => {
    const project = mkdtempSync(join(tmpdir(), 'parley-init-workflow-'));
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, 'package.json'), '{ "name": "team-project", "private": true }\n');
    expect((await parleyAsync(['init', 'evals', '--yes', '--github'], { cwd: project })).status).toBe(0);
    const workflow = parse(readFileSync(join(project, '.github', 'workflows', 'parley.yml'), 'utf8')) as {
      jobs: { parley: { steps: Array<{ run?: string; uses?: string; with?: { path?: string } }> } };
    };
    const steps = workflow.jobs.parley.steps;
    const runStep = steps.find((step) => step.run?.startsWith('npx parley run'))!;
    const uploaded = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!.with!.path!;
    const ran = await parleyAsync(runStep.run!.trim().replace(/^npx parley /, '').split(' '), { cwd: project });
    expect(ran.status, ran.stderr).toBe(0);

    // What the summary tells a reader to run, in the artifact unzipped in the project (a fresh checkout: no history).
    const link = steps.find((step) => step.run?.includes('GITHUB_STEP_SUMMARY'))!.run!;
    const command = /npx parley (show-report[^)]*?) in its folder/.exec(link);
    expect(command, link).not.toBeNull();
    const unzipped = join(mkdtempSync(join(project, 'download-')), 'parley-report');
    cpSync(join(project, uploaded), unzipped, { recursive: true });
    await expect(serve(command![1]!.trim().split(' '), unzipped)).resolves.toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });
});
