import { parseArgs } from 'node:util';
import { PROMPTFOO_VERSION } from './promptfoo-workload.js';

export const BENCH_USAGE = `usage: npm run bench -- [--sizes 1,1000,10000] [--runs 3] [--promptfoo] [--floor] [--database-url URL] [--json FILE] [--keep]

  --sizes      scenario counts to replay (6 user turns each), comma-separated
  --runs       runs per workload; wall time is the median, peak RSS the maximum
  --promptfoo  also run promptfoo ${PROMPTFOO_VERSION} on the same counts (installed once into the temp folder)
  --floor      also time the replay floor (replay-floor.ts) on each suite and \`node -e 0\`, interleaved
               with Parley's runs, and print Parley's ratios to them
  --database-url  also replay each size into this PostgreSQL database (PARLEY_DATABASE_URL of the runs),
               interleaved with the replays into SQLite, and print PostgreSQL's ratio to SQLite
               (default: $PARLEY_BENCH_DATABASE_URL; the runs add to the history the database holds)
  --json       also write the results as JSON to FILE
  --keep       keep the generated suites and run folders (their path is printed)`;

export interface BenchOptions {
  sizes: number[];
  runs: number;
  promptfoo: boolean;
  floor: boolean;
  /** A PostgreSQL URL: each replay is also run into this team store, interleaved with SQLite. */
  databaseUrl?: string;
  json?: string;
  keep: boolean;
}

export const DEFAULT_SIZES = [1, 1_000, 10_000];

/** The options, `help`, or the message to print before exiting with 2. */
export function parseBenchArguments(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | { help: true } | { error: string } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        sizes: { type: 'string' },
        runs: { type: 'string' },
        promptfoo: { type: 'boolean' },
        floor: { type: 'boolean' },
        'database-url': { type: 'string' },
        json: { type: 'string' },
        keep: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (values.help) return { help: true };
  const sizes = values.sizes === undefined ? DEFAULT_SIZES : values.sizes.split(',').map((part) => Number(part.trim().replaceAll('_', '')));
  if (sizes.length === 0 || sizes.some((size) => !Number.isInteger(size) || size < 1)) {
    return { error: `--sizes takes positive whole numbers separated by commas, got "${values.sizes}"` };
  }
  const runs = values.runs === undefined ? 3 : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) return { error: `--runs takes a positive whole number, got "${values.runs}"` };
  const databaseUrl = values['database-url'] ?? (env.PARLEY_BENCH_DATABASE_URL || undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { error: `--database-url takes a postgres:// URL, got "${databaseUrl.replace(/:[^:@/]*@/, ':***@')}"` };
  }
  if (databaseUrl !== undefined && values.floor) return { error: '--database-url and --floor are measured apart: give one of them' };
  return {
    sizes,
    runs,
    promptfoo: values.promptfoo ?? false,
    floor: values.floor ?? false,
    ...(databaseUrl !== undefined ? { databaseUrl } : {}),
    ...(values.json !== undefined ? { json: values.json } : {}),
    keep: values.keep ?? false,
  };
}
