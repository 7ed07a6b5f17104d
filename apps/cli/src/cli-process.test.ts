import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, copyExample } from './test-support/example-copy.js';

const BIN = join(REPO_ROOT, 'apps/cli/bin/parley.js');

/** A loopback port nothing listens on: connections to it are refused. (Not 9: fetch refuses "bad ports" before connecting.) */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
let refused = 0;
beforeAll(async () => {
  refused = await refusedPort();
});
const SUPPORT = join(REPO_ROOT, 'apps/cli/src/test-support');

/** Runs the real `parley` binary as a user would, without API keys and with unreachable providers. */
function parleyProcess(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'parley-cwd-'));
  const networkLog = join(cwd, 'network.log');
  const moduleLog = join(cwd, 'modules.log');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NO_COLOR: '1',
    OPENAI_BASE_URL: `http://127.0.0.1:${refused}/v1`,
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${refused}`,
    PARLEY_NETWORK_LOG: networkLog,
    PARLEY_MODULE_LOG: moduleLog,
    ...extraEnv,
  };
  const result = spawnSync(
    process.execPath,
    ['--require', join(SUPPORT, 'no-network.cjs'), '--import', join(SUPPORT, 'trace-modules.mjs'), BIN, ...args],
    { cwd, env, encoding: 'utf8', timeout: 60_000 },
  );
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  return { ...result, cwd, networkAttempts: read(networkLog), modules: read(moduleLog) };
}

describe('the parley binary on the examples', () => {
  it.each(['booking', 'municipal'])('replays examples/%s with no keys, no network and no SDK loaded, and exits 0', (name) => {
    const run = parleyProcess(['run', join(REPO_ROOT, 'examples', name), '--out', 'out']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.networkAttempts).toBe('');
    expect(run.modules).toMatch(/dist\/bundle\/parley\.js/);
    expect(run.modules).not.toMatch(/node_modules\/(openai|@anthropic-ai|ink|react)\//);
    expect(run.stdout).toMatch(/PASS · \d+ scenarios/);
    expect(run.stdout).not.toMatch(/\u001b\[/); // NO_COLOR and not a terminal: no escape codes
    expect(run.stderr).toMatch(/\[1\/\d+\] pass|\[1\/\d+\] fail/); // plain progress lines off a TTY
    for (const file of ['report.json', 'junit.xml', 'summary.md', 'events.jsonl']) {
      expect(existsSync(join(run.cwd, 'out', file)), file).toBe(true);
    }
    expect(existsSync(join(run.cwd, '.parley', 'parley.db'))).toBe(true);
  });

  it('the network guard does catch connections: a live run is refused and becomes error results, not a crash', () => {
    const run = parleyProcess(['run', join(REPO_ROOT, 'examples', 'booking'), '--mode', 'live', '--scenario', 'spa_price*', '--out', 'out'], {
      OPENAI_API_KEY: 'sk-test-GUARD-0123456789',
    });
    expect(run.networkAttempts).toContain('connect');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('spa_price_question_sw');
    expect(run.stdout).toMatch(/error/);
    expect(`${run.stdout}${run.stderr}`).not.toContain('sk-test-GUARD-0123456789');
    expect(run.modules).toMatch(/node_modules\/openai\//);
  });

  it('appends the summary to $GITHUB_STEP_SUMMARY', () => {
    const summaryFile = join(mkdtempSync(join(tmpdir(), 'parley-gh-')), 'summary.md');
    const run = parleyProcess(['run', join(REPO_ROOT, 'examples', 'booking'), '--out', 'out'], { GITHUB_STEP_SUMMARY: summaryFile });
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(summaryFile, 'utf8')).toMatch(/^## Parley: PASS/m);
  });

  it('the bundled binary validates json_schema expectations with the Ajv version the metric is written for', () => {
    const suite = copyExample('booking');
    const file = join(suite, 'scenarios', 'spa_price_question_sw.yaml');
    const check = '  - { metric: json_schema, schema: { type: object, requried: [total] } }\n';
    writeFileSync(file, readFileSync(file, 'utf8').replace('expect:\n', `expect:\n${check}`));
    const run = parleyProcess(['run', suite, '--scenario', 'spa_price*', '--out', 'out']);
    // Ajv 8 in strict mode refuses the misspelt keyword when the suite loads (exit 2, with the
    // place in the file); an older Ajv would silently ignore it and the run would pass.
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/spa_price_question_sw\.yaml:\d+:\d+: .*requried/);
  });

  it('loads only what a command uses: --version, --help and validate load no schemas library, HTTP or SQLite', () => {
    /** The bundle's bytes a process loaded, and the modules that are not bundle files. */
    const loaded = (modules: string) => {
      const files = modules.split('\n').filter((url) => url.includes('/dist/bundle/'));
      const bytes = files.reduce((sum, url) => sum + statSync(fileURLToPath(url)).size, 0);
      return { bytes, others: modules.split('\n').filter((url) => url !== '' && !url.includes('/dist/bundle/')) };
    };
    const version = parleyProcess(['--version']);
    const { version: packageVersion } = JSON.parse(readFileSync(join(REPO_ROOT, 'apps/cli/package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toBe(`${packageVersion}\n`);
    // The bin answers from its package.json: no bundle file, none of the bundle's built-in modules.
    expect(loaded(version.modules).bytes).toBe(0);
    expect(version.modules).not.toMatch(/node:(v8|crypto|child_process)\n/);
    const help = parleyProcess(['--help']);
    expect(help.status).toBe(0);
    // Every command's registration (options and help only), none of their libraries: zod alone is
    // ~450 kB, nor cli-table3 or simple-statistics (their commands import them when they run). The
    // registrations are in the entry file (main.ts), not one chunk each, and the chunks the entry
    // always loads are folded into it (scripts/merge-entry-chunks.mjs): help read 43 files, then 17, now 1.
    expect(loaded(help.modules).bytes).toBeLessThan(150_000);
    expect(help.modules.split('\n').filter((url) => url.includes('/dist/bundle/'))).toEqual([expect.stringMatching(/\/dist\/bundle\/parley\.js$/)]);
    // node:crypto and node:child_process are loaded when first used (scripts/builtin-imports.mjs):
    // help reached them only through code it never runs (atomic writes, commander's subcommands).
    expect(help.modules).not.toMatch(/node:(v8|crypto|child_process)\n/);
    const validate = parleyProcess(['validate', join(REPO_ROOT, 'examples', 'booking')]);
    expect(validate.status, validate.stderr).toBe(0);
    // Loading and checking a suite, not running it: no store, report, provider or judge-run code
    // (scripts/direct-imports.mjs; it was ~870 kB when validate shared chunks with run). Every
    // command's registration is part of it (~65 kB since they moved into the entry file).
    expect(loaded(validate.modules).bytes).toBeLessThan(540_000);
    // Loading a suite records its store setting (libs/store/src/store-location.ts) without the
    // store's drivers, migrations and worker thread (~35 kB and node:worker_threads).
    const validateSources = validate.modules
      .split('\n')
      .filter((url) => url.includes('/dist/bundle/'))
      .flatMap((url) => (JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] }).sources);
    expect(validateSources.filter((source) => /libs\/store\/src\/(open-sql|sql\/)/.test(source))).toEqual([]);
    // One picomatch (the runner's), and the full `yaml` library not evaluated for valid files
    // (scripts/bundle-cli.mjs, scripts/lazy-yaml.mjs): no package is read from node_modules at run
    // time, and no heap setting (node:v8) for a command that holds no results.
    expect(validateSources.filter((source) => source.includes('picomatch/index.js'))).toHaveLength(1);
    expect(loaded(validate.modules).others.filter((url) => url.includes('/node_modules/'))).toEqual([]);
    expect(validate.modules).not.toMatch(/node:(v8|child_process)\n/);
    for (const run of [help, validate]) {
      // Built-in modules come from process.getBuiltinModule (scripts/builtin-imports.mjs): an ES
      // import of one makes Node load every module its exports reach (streams, workers, readline).
      const files = run.modules.split('\n').filter((url) => url.includes('/dist/bundle/'));
      for (const file of files) expect(readFileSync(fileURLToPath(file), 'utf8'), file).not.toMatch(/from\s*["'](node:)?(fs|path|crypto|child_process|process|util|events|url|os)["']/);
      // Only esbuild's runtime chunk makes a `require` for the CommonJS packages (builtin-imports.mjs, withoutUnusedRequire).
      expect(files.filter((file) => readFileSync(fileURLToPath(file), 'utf8').includes('createRequire(import.meta.url)')).length).toBeLessThanOrEqual(1);
    }
    for (const run of [version, help, validate]) {
      expect(loaded(run.modules).others.join('\n')).not.toMatch(/node:http\b|better-sqlite3|node_modules\/(openai|@anthropic-ai|ink|react)\//);
    }
  });

  it('a replay loads the run and not the other parts of the runner, the export or the progress bar (off a terminal)', () => {
    const run = parleyProcess(['run', join(REPO_ROOT, 'examples', 'booking'), '--out', 'out']);
    expect(run.status, run.stderr).toBe(0);
    // The source files in the bundle files the process loaded, from their source maps.
    const sources = run.modules
      .split('\n')
      .filter((url) => url.includes('/dist/bundle/'))
      .flatMap((url) => (JSON.parse(readFileSync(`${fileURLToPath(url)}.map`, 'utf8')) as { sources: string[] }).sources);
    expect(sources.join('\n')).toMatch(/libs\/runner\/src\/run-suite\.ts/);
    // `await import('@parley/runner')` loaded the whole index (shard merging, --last-failed, the
    // merged report's reader); the command now imports what a run uses by name (run-command.ts).
    // (The CLI's own sources are named relative to the bundle, `../../../src/commands/…`.)
    for (const part of ['libs/runner/src/merge-shard-runs.ts', 'libs/runner/src/last-failed.ts', 'libs/reports/src/merge-reports.ts', '/src/commands/export-command.ts', 'node_modules/cli-progress/']) {
      expect(sources.filter((source) => source.includes(part)), part).toEqual([]);
    }
  });

  it("a replay of prompt agents without code metrics loads none of Node's modules for worker threads, line reading or promised files", () => {
    // Read from process.moduleLoadList at exit, without the module tracer: its loader hooks run in
    // a worker thread of their own. The module agents, the command agents, the PostgreSQL store,
    // judge prompt versions and recording writes take these when they start, not when they load.
    const cwd = mkdtempSync(join(tmpdir(), 'parley-cwd-'));
    const preload = join(cwd, 'builtins.cjs');
    const list = join(cwd, 'builtins.txt');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
    const run = spawnSync(process.execPath, ['--require', preload, BIN, 'run', join(REPO_ROOT, 'examples', 'municipal'), '--out', 'out'], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const builtins = readFileSync(list, 'utf8').split('\n');
    expect(builtins).toContain('NativeModule zlib');
    expect(builtins.filter((entry) => /^NativeModule (worker_threads|readline|fs\/promises)$/.test(entry))).toEqual([]);
  });

  it('prints help and exits 0; an unknown command exits 2', () => {
    const help = parleyProcess(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('run [options] [suite]');
    const unknown = parleyProcess(['frobnicate']);
    expect(unknown.status).toBe(2);
  });
});
