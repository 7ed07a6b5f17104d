// A prune stopped half-way, for the SIGKILL test: opens the store (compiled library, as the CLI
// would), starts removing every run of the suite but the newest, and after the given number of runs
// prints "midway" and blocks inside the transaction until the test kills it.
import { defaultHistoryRetention, openStore, pruneHistory } from '@parley/store';

const [path, suite, after] = process.argv.slice(2);
const store = openStore(path);
pruneHistory(store, {
  suite,
  retention: { ...defaultHistoryRetention, keep_runs: 1 },
  now: new Date('2026-11-27T00:00:00Z'),
  onRemoved: (_runId, index) => {
    if (index + 1 === Number(after)) {
      process.stdout.write('midway\n');
      // Blocks this thread for good: the test kills the process here, mid-transaction.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
  },
});
process.stdout.write('finished\n');
