/**
 * `node tools/bench/dist/calibration-report.js [--items 1000] [--resamples 1000] [--runs 5] [--keep]`:
 * how long the calibration report takes on a large set: a 1,000-resample bootstrap on 1,000 items
 * × 3 axes in at most 0.3 s (issue "Calibration engine"), the whole command in at most 0.5 s
 * (issue 28).
 *
 * Two workloads on the same synthetic set (two reviewers rate every item; judge and cross-check
 * ratings stored as one session):
 * - `buildCalibrationReport`: the statistics alone, in this process: every comparison, axis and
 *   overall, all kappas with both intervals, alphas and the trend. Median of the runs after one
 *   warm-up run (the first run's time is printed too).
 * - `parley calibrate report`: the real binary as a user runs it, from spawn to exit: loading
 *   the YAML set and the store, the statistics, writing the Markdown and JSON reports.
 *
 * Exits 1 when a median is over the target, 2 when a run could not be trusted.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildCalibrationReport,
  loadCalibrationSet,
  loadRubric,
  newCalibrationSetText,
  openCalibrationStore,
  transcriptDigest,
  type CalibrationReport,
  type CalibrationSession,
  type StoredJudgeRating,
} from '@parley/calibration';
import { seededRandom, type Random } from '@parley/core';
import { measureRepeatedly, median } from './measure-command.js';

const TARGET_SECONDS = 0.3;
const COMMAND_TARGET_SECONDS = 0.5;
const AXES = ['intent_comprehension', 'response_naturalness', 'cultural_appropriateness'] as const;
const BIN = fileURLToPath(new URL('../../../apps/cli/bin/parley.js', import.meta.url));
const SESSION_ID = '20261207-090000-bench0';

interface Options {
  items: number;
  resamples: number;
  runs: number;
  keep: boolean;
}

function parseOptions(argv: readonly string[]): Options | { error: string } {
  const options: Options = { items: 1000, resamples: 1000, runs: 5, keep: false };
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    if (flag === '--keep') {
      options.keep = true;
      continue;
    }
    const value = Number(argv[index + 1]);
    if (!['--items', '--resamples', '--runs'].includes(flag ?? '') || !Number.isInteger(value) || value < 1) {
      return { error: `unknown flag or bad value: ${flag ?? ''} ${argv[index + 1] ?? ''}` };
    }
    options[flag!.slice(2) as 'items' | 'resamples' | 'runs'] = value;
    index += 1;
  }
  return options;
}

/** A 1–5 rating near `center`: mostly equal, sometimes one off, rarely two. */
function near(center: number, random: Random): number {
  const draw = random.next();
  const step = draw < 0.7 ? 0 : draw < 0.95 ? (random.next() < 0.5 ? -1 : 1) : random.next() < 0.5 ? -2 : 2;
  return Math.min(5, Math.max(1, center + step));
}

/** The set's YAML, written as Parley writes it (block items, one flow line per message and rating). */
function setText(items: number, random: Random): { text: string; truth: number[][] } {
  const lines = [newCalibrationSetText({ rubricVersion: '1.0.0', owner: 'bench' }).replace('items: []\n', 'items:')];
  const truth: number[][] = [];
  for (let index = 0; index < items; index += 1) {
    const quality = AXES.map(() => 1 + Math.floor(random.next() * 5));
    truth.push(quality);
    lines.push(
      `  - id: cal-2026-11-${String(index + 1).padStart(4, '0')}`,
      '    added: 2026-11-02',
      '    source: synthetic',
      `    language: ${index % 2 === 0 ? 'sw' : 'en'}`,
      '    vertical: spa',
      '    transcript:',
      `      - { role: user, content: "Habari, nataka massage Jumamosi saa ${(index % 9) + 1} asubuhi (ombi ${index})." }`,
      '      - { role: assistant, content: "Karibu! Tuna nafasi saa nne. Massage ya dakika 60 ni KES 3,500. Nikuwekee?" }',
      '    ratings:',
    );
    for (const reviewer of ['rev-a', 'rev-b']) {
      const scores = quality.map((center, axis) => `${AXES[axis]}: ${near(center, random)}`).join(', ');
      lines.push(`      - { reviewer: ${reviewer}, rated_at: "2026-11-03T10:00:00Z", rubric_version: "1.0.0", ${scores} }`);
    }
  }
  return { text: `${lines.join('\n')}\n`, truth };
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if ('error' in options) {
    process.stderr.write(`calibration bench: ${options.error}\nusage: calibration-report.js [--items N] [--resamples N] [--runs N] [--keep]\n`);
    return 2;
  }
  const cwd = mkdtempSync(join(tmpdir(), 'parley-bench-calibration-'));
  try {
    const random = seededRandom(2026);
    const folder = join(cwd, 'calibration');
    mkdirSync(folder, { recursive: true });
    const { text, truth } = setText(options.items, random);
    writeFileSync(join(folder, 'human_labelled.yaml'), text);
    writeFileSync(join(folder, 'rubric.md'), '---\nversion: 1.0.0\n---\n# Rubric\nRate each axis 1 (worst) to 5 (best).\n');
    const set = loadCalibrationSet(join(folder, 'human_labelled.yaml'));
    const rubric = loadRubric(join(folder, 'rubric.md'));

    const session: CalibrationSession = {
      id: SESSION_ID,
      set_path: 'calibration',
      started_at: '2026-12-07T09:00:00.000Z',
      finished_at: '2026-12-07T09:20:00.000Z',
      mode: 'live',
      rubric_version: '1.0.0',
      rubric_sha256: rubric.sha256,
      raters: { judge: { provider: 'anthropic', model: 'claude-opus-4-7' }, cross_check: { provider: 'openai', model: 'gpt-4.1' } },
      items: set.items.length,
      parley_version: '0.1.0',
    };
    const ratings: StoredJudgeRating[] = set.items.flatMap((item, index) =>
      (['judge', 'cross_check'] as const).map((rater) => ({
        session_id: SESSION_ID,
        item_id: item.id,
        rater,
        provider: rater === 'judge' ? 'anthropic' : 'openai',
        model: rater === 'judge' ? 'claude-opus-4-7' : 'gpt-4.1',
        item_digest: transcriptDigest(item.transcript),
        cache_key: `bench-${index}-${rater}`,
        scores: Object.fromEntries(AXES.map((axis, position) => [axis, near(truth[index]![position]!, random)])),
        reason: 'synthetic',
        error: null,
        raw_output: null,
        cached: false,
        input_tokens: 1800,
        output_tokens: 60,
        cost_usd: 0.03,
        latency_ms: 900,
      })),
    );
    const store = openCalibrationStore(join(cwd, '.parley', 'parley.db'));
    store.createSession(session);
    for (const rating of ratings) store.saveRating(rating);
    store.close();

    // The statistics alone.
    const build = (): CalibrationReport =>
      buildCalibrationReport({
        set,
        setPath: 'calibration',
        rubric,
        session,
        ratings,
        history: [],
        gate: { minKappa: 0.7, maxBias: 0.5 },
        bootstrap: { seed: 1, resamples: options.resamples },
        now: new Date('2026-12-07T10:00:00Z'),
      });
    const timings: number[] = [];
    const cpuTimings: number[] = [];
    let report: CalibrationReport | undefined;
    for (let run = 0; run <= options.runs; run += 1) {
      const started = process.hrtime.bigint();
      const cpuStarted = process.cpuUsage();
      report = build();
      timings.push(Number(process.hrtime.bigint() - started) / 1e9);
      const cpu = process.cpuUsage(cpuStarted);
      cpuTimings.push((cpu.user + cpu.system) / 1e6);
    }
    const pairs = report!.comparisons[0]!.axes[0]!.n;
    if (pairs !== options.items * 2) throw new Error(`expected ${options.items * 2} judge-vs-human pairs per axis, got ${pairs}`);
    const inProcess = median(timings.slice(1));

    // The binary, end to end.
    const binary = await measureRepeatedly(
      { argv: [process.execPath, BIN, 'calibrate', 'report', '--resamples', String(options.resamples)], cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' } },
      {
        runs: options.runs,
        afterRun: (measurement) => {
          if (measurement.exitCode !== 0 && measurement.exitCode !== 1) throw new Error(`parley calibrate report exited ${measurement.exitCode ?? measurement.signal}`);
        },
      },
    );
    const written = pairsInWrittenReport(folder);
    if (written !== options.items * 2) throw new Error(`the binary's report has ${written ?? 'no'} judge-vs-human pairs per axis, not ${options.items * 2}`);

    const cpu = binary.cpuSeconds === undefined ? '' : `, cpu ${binary.cpuSeconds.toFixed(3)} s`;
    const rss = binary.peakRssKiB === undefined ? '' : `, peak RSS ${(binary.peakRssKiB / 1024).toFixed(1)} MiB`;
    const verdict = (seconds: number, target = TARGET_SECONDS): string => (seconds <= target ? 'ok' : 'OVER');
    process.stdout.write(
      [
        `calibration report: ${options.items} items × ${AXES.length} axes, 2 reviewers + judge + cross-check, ${options.resamples}-resample bootstrap, median of ${options.runs} runs`,
        `  buildCalibrationReport (in process)   ${inProcess.toFixed(3)} s, cpu ${median(cpuTimings.slice(1)).toFixed(3)} s   (first run ${timings[0]!.toFixed(3)} s)   target ≤ ${TARGET_SECONDS} s   ${verdict(inProcess)}`,
        `  parley calibrate report (the binary)  ${binary.wallSeconds.toFixed(3)} s${cpu}${rss}   target ≤ ${COMMAND_TARGET_SECONDS} s   ${verdict(binary.wallSeconds, COMMAND_TARGET_SECONDS)}`,
        `  per run (binary): ${binary.runs.map((run) => run.wallSeconds.toFixed(3)).join(', ')} s`,
        '',
      ].join('\n'),
    );
    return inProcess <= TARGET_SECONDS && binary.wallSeconds <= COMMAND_TARGET_SECONDS ? 0 : 1;
  } catch (error) {
    process.stderr.write(`calibration bench: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  } finally {
    if (!options.keep) rmSync(cwd, { recursive: true, force: true });
    else process.stderr.write(`calibration bench: kept ${cwd}\n`);
  }
}

/** Judge-vs-human pairs of the first axis in the JSON report the binary wrote (its date is today's). */
function pairsInWrittenReport(folder: string): number | undefined {
  const reports = join(folder, 'reports');
  const name = readdirSync(reports).find((file) => file.endsWith('.json'));
  if (name === undefined) return undefined;
  const report: unknown = JSON.parse(readFileSync(join(reports, name), 'utf8'));
  const n = (report as { comparisons?: Array<{ axes?: Array<{ n?: unknown }> }> }).comparisons?.[0]?.axes?.[0]?.n;
  return typeof n === 'number' ? n : undefined;
}

process.exitCode = await main();
