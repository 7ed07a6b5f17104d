/**
 * `npm run bench -- [--sizes 1,1000,10000] [--runs 3] [--promptfoo] [--json FILE] [--keep]`:
 * times `parley run --mode replay` on synthetic suites (and promptfoo on the same counts),
 * prints a table against the targets, and exits 1 when a target is missed, 2 on bad arguments
 * or when a run could not be trusted (a failed run, a scenario that did not pass).
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BENCH_USAGE, parseBenchArguments } from './bench-arguments.js';
import { renderResultsTable } from './results-table.js';
import { runBench, type BenchReport } from './run-bench.js';

async function main(): Promise<number> {
  const options = parseBenchArguments(process.argv.slice(2));
  if ('help' in options) {
    process.stdout.write(`${BENCH_USAGE}\n`);
    return 0;
  }
  if ('error' in options) {
    process.stderr.write(`bench: ${options.error}\n${BENCH_USAGE}\n`);
    return 2;
  }
  const log = (line: string): void => {
    process.stderr.write(`bench: ${line}\n`);
  };
  let report: BenchReport;
  try {
    report = await runBench(options, log);
  } catch (error) {
    process.stderr.write(`bench: FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  const color = process.stdout.isTTY === true && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
  process.stdout.write(`\n${describeMachine(report)}\n\n${renderResultsTable(report.rows, color)}\n`);
  if (report.floorComparisons.length > 0) process.stdout.write(`\n${renderFloorComparisons(report)}\n`);
  if (report.comparisons.length > 0) process.stdout.write(`\n${renderComparisons(report)}\n`);
  for (const note of report.notes) process.stdout.write(`\nnote: ${note}\n`);
  if (options.json !== undefined) {
    writeFileSync(resolve(options.json), `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`\nresults written to ${options.json}\n`);
  }
  return report.rows.some((row) => row.verdict === 'over') ? 1 : 0;
}

function describeMachine(report: BenchReport): string {
  const { machine } = report;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' ');
  return `${machine.cpus} CPUs (${machine.cpuModel}), Node ${machine.node}, ${machine.platform}; wall = median of ${report.runs} runs, peak RSS = max\nload average ${load(report.loadAverage.start)} at the start, ${load(report.loadAverage.end)} at the end`;
}

/** One line per comparison with the floor: both times and how many times the floor's Parley takes. */
function renderFloorComparisons(report: BenchReport): string {
  const lines = [
    report.floorComparisons.every((comparison) => comparison.workload.includes('PostgreSQL'))
      ? 'PostgreSQL vs SQLite (ratio = replay into PostgreSQL / replay into SQLite, runs interleaved):'
      : 'Parley vs the floor (ratio = Parley / floor, runs interleaved; the floor: node -e 0, or tools/bench/src/replay-floor.ts):',
  ];
  for (const comparison of report.floorComparisons) {
    const label = comparison.count === null ? comparison.workload : `${comparison.workload}, N = ${comparison.count.toLocaleString('en-US')}`;
    const cpu = comparison.cpuRatio === null ? '' : `; cpu ${comparison.cpuRatio.toFixed(2)}×`;
    lines.push(`  ${label}: wall ${comparison.parleyWallSeconds.toFixed(3)} s vs ${comparison.floorWallSeconds.toFixed(3)} s (${comparison.wallRatio.toFixed(2)}×)${cpu}`);
  }
  return lines.join('\n');
}

/** One line per size: both figures and how many times promptfoo's exceeds Parley's. */
function renderComparisons(report: BenchReport): string {
  const lines = ['Parley vs promptfoo (ratio = promptfoo / Parley; Parley scenarios have 6 user turns, promptfoo tests 1):'];
  for (const comparison of report.comparisons) {
    const label = comparison.count === null ? comparison.workload : `${comparison.workload}, N = ${comparison.count.toLocaleString('en-US')}`;
    const rss =
      comparison.rssRatio === null
        ? ''
        : `; peak RSS ${comparison.parleyPeakRssMiB?.toFixed(1)} MiB vs ${comparison.promptfooPeakRssMiB?.toFixed(1)} MiB (${comparison.rssRatio.toFixed(2)}×)`;
    lines.push(
      `  ${label}: wall ${comparison.parleyWallSeconds.toFixed(3)} s vs ${comparison.promptfooWallSeconds.toFixed(3)} s (${comparison.wallRatio.toFixed(2)}×)${rss}`,
    );
  }
  return lines.join('\n');
}

process.exitCode = await main();
