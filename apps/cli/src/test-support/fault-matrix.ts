/**
 * The fault matrix of every command: for each command and each kind of fault (signals, timeouts,
 * bad input, full disk, paths) what Parley does, whether that holds, and the tests that hold it.
 * docs/reliability.md shows this table (`fault-matrix-doc.test.ts` checks that the doc says
 * exactly this, and that every test named here exists), so a cell changes here, with its test.
 *
 * Status: `holds` (a test in `npm test` keeps it so), `limit` (a known limit, said in `what`),
 * `open` (a known fault not fixed yet), `n/a` (the command has no such exposure: `what` says why).
 */

export const FAULT_KINDS = ['signals', 'timeouts', 'bad input', 'full disk', 'paths'] as const;
type FaultKind = (typeof FAULT_KINDS)[number];
type CellStatus = 'holds' | 'limit' | 'open' | 'n/a';

/** A test by its file (from the repository root) and a piece of its title. */
interface TestRef {
  file: string;
  title: string;
}

interface MatrixCell {
  status: CellStatus;
  /** What Parley does (or, for `open` and `limit`, what it does not do yet). One sentence. */
  what: string;
  /** The tests that keep the cell so: at least one for `holds`. */
  tests?: TestRef[];
}

export interface MatrixRow {
  command: string;
  cells: Record<FaultKind, MatrixCell>;
}

const RUN_INTERRUPT = 'apps/cli/src/run-interrupt.test.ts';
const RUN_PATHS = 'apps/cli/src/run-paths.test.ts';
const DISK_FULL = 'apps/cli/src/disk-full.test.ts';
const FUZZ = 'apps/cli/src/bad-input-fuzz.test.ts';

const LOG_FUZZ = 'apps/cli/src/production-log-fuzz.test.ts';
const PATH_CASES = 'apps/cli/src/path-cases.test.ts';
const CONNECT_TIMEOUT = 'libs/providers/src/connect-timeout.test.ts';
/** The walk of every command over the path cases (item 12), as a cell names it. */
const WALKED: TestRef = { file: PATH_CASES, title: 'every command over the path cases' };
/** What the walk shows of `parameters`. */
const walked = (parameters: string): string =>
  `${parameters} walked with every other command over the path cases (a file where a folder must be, a path through a file, a 300-character name, a read-only file system): exit 2 with one line naming the path and what to do, never "internal error"`;
const LOG_LINES = 'libs/production/src/log-lines.test.ts';

const notNetworked = (command: string): MatrixCell => ({ status: 'n/a', what: `${command} makes no network call` });

export const FAULT_MATRIX: MatrixRow[] = [
  {
    command: 'run (live, record)',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C / SIGTERM: no new scenario starts, finished results kept, reports written, `interrupted`, exit 130 / 143, `--resume` finishes it; SIGKILL loses no finished result',
        tests: [
          { file: RUN_INTERRUPT, title: 'keeps finished results (store and reports)' },
          { file: RUN_INTERRUPT, title: 'SIGTERM (CI runners, timeout) is handled like Ctrl-C' },
          { file: RUN_INTERRUPT, title: 'SIGKILL loses no finished result' },
        ],
      },
      timeouts: {
        status: 'holds',
        what: 'every provider call has a deadline (`timeout_ms`, default 60 s) and a connect timeout (`PARLEY_CONNECT_TIMEOUT_MS`, default 10 s), each named when it fires; a scenario has `settings.scenario_timeout_ms`',
        tests: [
          { file: 'libs/providers/src/timeout-provider.test.ts', title: '' },
          { file: 'apps/cli/src/module-agent-faults.test.ts', title: 'turns a hang' },
          { file: CONNECT_TIMEOUT, title: 'a host that never takes the connection fails after PARLEY_CONNECT_TIMEOUT_MS' },
          { file: CONNECT_TIMEOUT, title: 'a host that takes the connection and never answers' },
        ],
      },
      'bad input': {
        status: 'holds',
        what: 'a damaged scenario, suite, recording or calibration file: exit 2 with file:line, never a stack trace',
        tests: [{ file: FUZZ, title: '' }],
      },
      'full disk': {
        status: 'holds',
        what: 'reports and recordings replaced whole or not at all; a full disk under the run history refuses the run before it starts: exit 2, `disk full: nothing was changed`, no run folder, no unfinished run',
        tests: [
          { file: DISK_FULL, title: 'parley run --mode record' },
          { file: 'apps/cli/src/history-disk-full.test.ts', title: 'refuses the run with "disk full", exit 2' },
        ],
      },
      paths: {
        status: 'holds',
        what: `\`--out\` a file, read-only folders, a FIFO recording, a folder another run holds: exit 2, one line; ${walked('`--out`, `--baseline`, `--export-baseline` and the suite')}`,
        tests: [{ file: RUN_PATHS, title: 'refuses an --out that is an existing file' }, WALKED],
      },
    },
  },
  {
    command: 'run (replay)',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C / SIGTERM as in a live run: no new scenario starts, `interrupted`, exit 130 / 143, report written, `--resume` replays only the rest (the run gives the signal a turn of the event loop between scenarios)',
        tests: [{ file: 'apps/cli/src/replay-interrupt.test.ts', title: 'stops starting scenarios, writes its report as interrupted' }],
      },
      timeouts: notNetworked('a replay'),
      'bad input': {
        status: 'holds',
        what: 'a damaged recording: exit 2 with file:line',
        tests: [{ file: FUZZ, title: '' }],
      },
      'full disk': {
        status: 'holds',
        what: 'a full disk under `.parley/parley.db` (or the report folder): exit 2, `disk full: nothing was changed`; the database byte for byte as it was, no run folder, no unfinished run. Not yet tried: a disk that fills up under the history while the run is going',
        tests: [{ file: 'apps/cli/src/history-disk-full.test.ts', title: 'the history unchanged, no run folder, no unfinished run' }],
      },
      paths: {
        status: 'holds',
        what: 'a recording that is a FIFO is refused at once',
        tests: [{ file: RUN_PATHS, title: 'refuses a recording that is a FIFO' }],
      },
    },
  },
  {
    command: 'calibrate judge',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C / SIGTERM: no new rating starts, paid ratings kept, aborted calls never stored as errors; the session is `interrupted` (unfinished: `calibrate report` leaves it out unless given `--session`), exit 130 / 143, `--resume SESSION` asks only for the ratings it lacks',
        tests: [{ file: 'apps/cli/src/calibrate-interrupt.test.ts', title: 'the session is interrupted (not finished, not reported)' }],
      },
      timeouts: {
        status: 'holds',
        what: 'the judges call providers through the same deadline and connect timeout as a run',
        tests: [
          { file: 'libs/providers/src/timeout-provider.test.ts', title: '' },
          { file: CONNECT_TIMEOUT, title: 'a host that never takes the connection fails after PARLEY_CONNECT_TIMEOUT_MS' },
        ],
      },
      'bad input': {
        status: 'holds',
        what: 'a bad rating: exit 2 with file:line:column',
        tests: [{ file: 'apps/cli/src/commands/calibrate.test.ts', title: 'exits 2 with file:line:column for a bad rating' }],
      },
      'full disk': {
        status: 'holds',
        what: 'the calibration folder (people\'s ratings, the recording) never changes; a full disk at the start: exit 2 `disk full: nothing was changed` before any call, no session stored; a disk that fills up during the session stops it as a signal would (no new call, calls in flight aborted), keeps the ratings stored so far, leaves the session unfinished and says how to `--resume` it (exit 2); the resumed session asks only for what it lacks. The rating whose save failed was paid for and is asked again',
        tests: [{ file: 'apps/cli/src/calibrate-judge-disk-full.test.ts', title: 'refuses before any call, or stops with the ratings kept and resumes' }],
      },
      paths: { status: 'holds', what: walked('`--dir`, `--suite`'), tests: [WALKED] },
    },
  },
  {
    command: 'calibrate report / import / status',
    cells: {
      signals: { status: 'n/a', what: 'nothing is paid for and the only file written is written atomically: a signal ends the command as it ends any process' },
      timeouts: { status: 'n/a', what: '`report` replays the recorded judges; no network call' },
      'bad input': {
        status: 'holds',
        what: 'a bad rating or flag: exit 2 with file:line:column',
        tests: [{ file: 'apps/cli/src/commands/calibrate.test.ts', title: 'exits 2 with file:line:column for a bad rating' }],
      },
      'full disk': {
        status: 'holds',
        what: '`import` on a full disk: the set is imported whole or not at all, exit 2',
        tests: [{ file: DISK_FULL, title: 'parley calibrate import' }],
      },
      paths: {
        status: 'holds',
        what: `the set file, ${walked('`--dir`, `--suite`')}; another machine's lock on the set: after its bounded wait (15 s) exit 2 naming the holder and what to do`,
        tests: [WALKED, { file: PATH_CASES, title: 'calibrate import waits its bounded time, then says who holds the lock' }],
      },
    },
  },
  {
    command: 'export',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C / SIGTERM while Langfuse holds the upload (`export` and `run --export`): the request in flight is aborted at once, no retry starts, exit 130 / 143, the export stays pending in the outbox and `export --flush` delivers it once; SIGKILL: the export was put in the outbox before it was sent, so it stays pending the same way',
        tests: [
          { file: 'apps/cli/src/export-outbox.test.ts', title: 'at once, the export stays pending, --flush delivers it once' },
          { file: 'apps/cli/src/export-outbox.test.ts', title: 'run --export killed (SIGKILL) while Langfuse holds the upload' },
        ],
      },
      timeouts: {
        status: 'holds',
        what: 'every call to Langfuse (its API and its OTLP endpoint) has a connect and a total timeout (`PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS`, `PARLEY_LANGFUSE_TIMEOUT_MS`), each named when it fires: a server that takes the connection and never answers ends `export` (exit 1) and `run --export` (reports written, the gate\'s exit code); OTLP collectors: `OTEL_EXPORTER_OTLP_TIMEOUT` per request; an export not taken stays in the outbox, sent by the next `run --export` or `export --flush`',
        tests: [
          { file: 'libs/langfuse/src/langfuse-client.test.ts', title: 'names the connect timeout' },
          { file: 'apps/cli/src/commands/export.test.ts', title: 'ends, naming the timeout, when Langfuse takes the connection and never answers' },
          { file: 'apps/cli/src/export-outbox.test.ts', title: 'the next run --export to it sends them after its own' },
        ],
      },
      'bad input': {
        status: 'holds',
        what: 'refused keys: exit 2 with one line naming none of them',
        tests: [{ file: 'apps/cli/src/commands/export.test.ts', title: 'exits 2 with one clear line when Langfuse refuses the keys' }],
      },
      'full disk': { status: 'n/a', what: 'writes nothing but the export state in the run history (see `run`)' },
      paths: { status: 'holds', what: walked('`--suite`'), tests: [WALKED] },
    },
  },
  {
    command: 'monitor',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C / SIGTERM: no judge call starts after the signal, calls in flight are aborted, what was judged is saved, `interrupted`, exit 130 / 143; the next run judges exactly the rest. SIGKILL after conversations were saved: their Langfuse scores wait in the outbox and arrive exactly once (the next run or `monitor --flush`), nothing judged twice',
        tests: [
          { file: 'apps/cli/src/monitor-interrupt.test.ts', title: 'no call after the signal' },
          { file: 'apps/cli/src/monitor-outbox.test.ts', title: 'the outbox delivers their scores exactly once' },
        ],
      },
      timeouts: {
        status: 'holds',
        what: 'a Langfuse that takes the connection and never answers: the connect timeout fires, named; judge calls and `--batch` submit and poll have the provider connect timeout (`PARLEY_CONNECT_TIMEOUT_MS`) and the call timeout, named. A batch is polled once per run (never waited for), so a run holds no longer than its calls\' timeouts',
        tests: [
          { file: 'apps/cli/src/commands/monitor-langfuse.test.ts', title: '' },
          { file: CONNECT_TIMEOUT, title: 'batch judging: submitting to and polling a host that never takes the connection' },
          { file: CONNECT_TIMEOUT, title: 'batch judging: a poll the host never answers ends after the call timeout' },
        ],
      },
      'bad input': {
        status: 'holds',
        what: 'logs read as bounded lines (8 MiB) of UTF-8 from a regular file, errors summarised after 20; damaged logs: exit 2 with file:line, never a stack trace or a hang',
        tests: [
          { file: LOG_FUZZ, title: 'monitor, promote and canary compare exit 2' },
          { file: LOG_LINES, title: '' },
        ],
      },
      'full disk': {
        status: 'holds',
        what: 'a full disk under `.parley/parley.db`: exit 2 `disk full` before any judge call (nothing paid for), the history keeps its data. Not tried: a disk that fills up while judging',
        tests: [{ file: 'apps/cli/src/history-disk-full.test.ts', title: 'says "disk full" and exits 2 before any judge call' }],
      },
      paths: {
        status: 'holds',
        what: `\`--logs\` on a FIFO, a folder or a device is refused at once; ${walked('`--logs`, `--suite`')}`,
        tests: [WALKED],
      },
    },
  },
  {
    command: 'promote',
    cells: {
      signals: {
        status: 'holds',
        what: 'pays for nothing; Ctrl-C while `--langfuse` waits on Langfuse aborts the request at once: `interrupted (SIGINT) …: nothing was promoted`, exit 130 (was: retried until the timeout, then exit 2); SIGTERM ends it as any process (its files are written whole or not at all)',
        tests: [{ file: 'apps/cli/src/commands/promote.test.ts', title: 'Ctrl-C while the Langfuse holding the feedback does not answer' }],
      },
      timeouts: {
        status: 'holds',
        what: 'feedback read from Langfuse (`--langfuse`) has its connect and total timeouts: a server that takes the connection and never answers ends the command with the timeout named, nothing promoted',
        tests: [{ file: 'apps/cli/src/commands/promote.test.ts', title: 'ends, naming the timeout, when the Langfuse holding the feedback' }],
      },
      'bad input': {
        status: 'holds',
        what: 'the log and feedback read as bounded lines of UTF-8 (invalid bytes refused with file:line:column, never written into a scenario); damaged files: exit 2 with file:line',
        tests: [{ file: LOG_FUZZ, title: 'monitor, promote and canary compare exit 2' }],
      },
      'full disk': {
        status: 'holds',
        what: 'at every fill level of a real tmpfs the promoted scenario and its recording are whole or absent, never empty or cut; earlier files unchanged; exit 0 or 2 `disk full`',
        tests: [{ file: DISK_FULL, title: 'parley promote: a full disk leaves the promoted scenario and its recording whole or absent' }],
      },
      paths: { status: 'holds', what: walked('`--logs`, `--feedback`, `--out`, `--suite`'), tests: [WALKED] },
    },
  },
  {
    command: 'canary',
    cells: {
      signals: { status: 'n/a', what: 'pays for nothing; ends as any process does' },
      timeouts: notNetworked('canary'),
      'bad input': {
        status: 'holds',
        what: '`canary assign` stdin and `compare` logs read as bounded lines of UTF-8 (`<stdin>:line:column`); unrecognised feedback values warned; damaged files: exit 2 with file:line',
        tests: [
          { file: LOG_FUZZ, title: 'monitor, promote and canary compare exit 2' },
          { file: 'apps/cli/src/commands/canary.test.ts', title: 'refuses stdin that is not UTF-8' },
          { file: 'apps/cli/src/commands/canary.test.ts', title: 'warns about feedback values it does not recognise' },
        ],
      },
      'full disk': {
        status: 'holds',
        what: '`compare` with a full disk under the monitor scores it reads: the same comparison as with room, or exit 2 `disk full: nothing was changed`; the history byte for byte unchanged. `assign` (or any command) whose output is redirected onto a full disk: one line, exit 2 (the file keeps what was written before the disk filled)',
        tests: [{ file: 'apps/cli/src/canary-disk-full.test.ts', title: 'compare: the same comparison, or exit 2 "disk full"' }],
      },
      paths: { status: 'holds', what: `\`compare\`'s ${walked('`--logs`, `--feedback`, `--suite`')}`, tests: [WALKED] },
    },
  },
  {
    command: 'init / generate',
    cells: {
      signals: {
        status: 'holds',
        what: 'Ctrl-C while `generate` waits on the model aborts the call: `interrupted (SIGINT): nothing was written`, exit 130, no scenario and no recording (was exit 1, `error: aborted`); SIGTERM ends it as any process (its files are written whole or not at all); `init` pays for nothing',
        tests: [{ file: 'apps/cli/src/commands/generate.test.ts', title: 'Ctrl-C while the model drafts is an interruption' }],
      },
      timeouts: {
        status: 'holds',
        what: '`generate` calls providers through the same deadline and connect timeout as a run',
        tests: [{ file: 'libs/providers/src/timeout-provider.test.ts', title: '' }],
      },
      'bad input': {
        status: 'holds',
        what: '`generate --from-dataset` on a damaged conversation log (invalid UTF-8, deep nesting, control characters, cut in half): exit 2 with file:line, nothing written (the log reader is fuzzed with the others); `init` reads no file. The SGD JSON form of a dataset is not fuzzed',
        tests: [{ file: LOG_FUZZ, title: 'generate --from-dataset exits 2 with file:line on the same damaged logs' }],
      },
      'full disk': {
        status: 'holds',
        what: 'each new file (`init`\'s scaffold, `generate`\'s drafted scenarios) whole or absent at every fill level of a real tmpfs, never empty or cut; exit 0 or 2 `disk full`',
        tests: [
          { file: DISK_FULL, title: 'parley init: a full disk leaves each new file whole or absent' },
          { file: DISK_FULL, title: 'parley generate: a full disk leaves each drafted scenario whole or absent' },
        ],
      },
      paths: {
        status: 'holds',
        what: `\`.gitignore\` through a dangling link or one leading out of its folder: exit 2 before anything is written; a link to a file in the folder is written through; \`init\`'s folder and \`generate\`'s ${walked('`--out`, `--suite`, `--from-dataset`')}`,
        tests: [{ file: 'apps/cli/src/commands/init.test.ts', title: 'refuses to write .gitignore through a dangling link' }, WALKED],
      },
    },
  },
  {
    command: 'validate',
    cells: {
      signals: { status: 'n/a', what: 'reads only' },
      timeouts: notNetworked('validate'),
      'bad input': {
        status: 'holds',
        what: 'damaged suites: exit 2 with file:line; 20,000 unknown keys in linear time',
        tests: [{ file: 'libs/config/src/hostile-input.test.ts', title: '' }],
      },
      'full disk': { status: 'n/a', what: 'writes nothing' },
      paths: {
        status: 'holds',
        what: 'a scenario file that is a FIFO, socket or device is refused with its path (never opened, never skipped)',
        tests: [{ file: 'libs/config/src/hostile-input.test.ts', title: 'refuses a scenario file that is a FIFO' }],
      },
    },
  },
  {
    command: 'runs / compare / cost',
    cells: {
      signals: { status: 'n/a', what: 'read the run history only' },
      timeouts: notNetworked('these commands'),
      'bad input': {
        status: 'holds',
        what: 'a `.parley/parley.db` that is not a database (or is damaged): exit 2, `cannot open … as a Parley database: file is not a database; move it aside (the run history then starts afresh) and run again`',
        tests: [{ file: PATH_CASES, title: 'each command either does not need the history (exit 0) or says it is not a Parley database' }],
      },
      'full disk': {
        status: 'holds',
        what: 'they write nothing, but SQLite needs room for its shared-memory index to read the history: on a full disk under `.parley/` they answer or exit 2 with one line, `.parley/parley.db: disk full: nothing was changed`, the history unchanged; `compare` of report folders given by path needs no history and answers',
        tests: [{ file: 'apps/cli/src/history-disk-full.test.ts', title: 'answer, or say "disk full" (exit 2, one line)' }],
      },
      paths: { status: 'holds', what: `report folders and files, ${walked('`--suite`')}`, tests: [WALKED] },
    },
  },
  {
    command: 'runs prune',
    cells: {
      signals: {
        status: 'holds',
        what: 'the removed runs\' rows go in one transaction: a prune killed half-way (even SIGKILL) leaves the history whole and consistent; report folders are deleted only after the commit',
        tests: [{ file: 'libs/store/src/run-history/prune-history.test.ts', title: 'a prune killed (SIGKILL) half-way through its transaction' }],
      },
      timeouts: notNetworked('runs prune'),
      'bad input': {
        status: 'holds',
        what: 'a bad `settings.history` (or any parley.yaml error) is exit 2 naming file:line:column, and nothing is removed',
        tests: [{ file: 'apps/cli/src/commands/runs-prune.test.ts', title: 'a parley.yaml with a bad history setting is a configuration error' }],
      },
      'full disk': {
        status: 'holds',
        what: 'the removal is one transaction: without room for it nothing is removed, exit 2 `disk full: nothing was changed`; the compaction after a large prune needs room for a copy of what is kept: when it fails the prune stays committed, the output says `disk full`, and the next prune compacts (even with nothing to remove). On a real tmpfs from 0 to 512 KiB free the removal always needed more room than the compaction, so that failure is held with an injected SQLITE_FULL',
        tests: [
          { file: 'apps/cli/src/history-disk-full.test.ts', title: 'removes the runs whole, or nothing' },
          { file: 'libs/store/src/run-history/prune-history.test.ts', title: 'a compaction the full disk refuses leaves the prune committed' },
        ],
      },
      paths: {
        status: 'holds',
        what: 'only real folders inside `.parley/` are deleted: a `--out` folder elsewhere, a symbolic link, or a folder reached through a link out of `.parley/` is left and named; links inside a deleted folder are not followed',
        tests: [{ file: 'libs/store/src/run-history/prune-history.test.ts', title: 'deletes only real folders under .parley/' }],
      },
    },
  },
];

/** The matrix as the doc shows it: a grid of statuses, then each cell that is not `n/a` with its tests. */
export function faultMatrixMarkdown(matrix: readonly MatrixRow[] = FAULT_MATRIX): string {
  const cells = matrix.flatMap((row) => FAULT_KINDS.map((kind) => row.cells[kind]));
  const count = (status: CellStatus) => cells.filter((cell) => cell.status === status).length;
  const lines = [
    `Figures: ${matrix.length} commands × ${FAULT_KINDS.length} kinds of fault = ${cells.length} cells: ${count('holds')} hold (each with its test), ${count('limit')} ${count('limit') === 1 ? 'is a known limit' : 'are known limits'}, ${count('open')} ${count('open') === 1 ? 'is' : 'are'} open, ${count('n/a')} do not apply.`,
    '',
    `| command | ${FAULT_KINDS.join(' | ')} |`,
    `| --- |${FAULT_KINDS.map(() => ' --- |').join('')}`,
    ...matrix.map((row) => `| ${row.command} | ${FAULT_KINDS.map((kind) => row.cells[kind].status).join(' | ')} |`),
    '',
    '| command | fault | status | what Parley does | tests |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const row of matrix) {
    for (const kind of FAULT_KINDS) {
      const cell = row.cells[kind];
      if (cell.status === 'n/a') continue;
      const tests = (cell.tests ?? []).map((test) => (test.title === '' ? `\`${test.file}\`` : `\`${test.file}\` "${test.title}"`));
      lines.push(`| ${row.command} | ${kind} | ${cell.status} | ${cell.what} | ${[...new Set(tests)].join(', ') || '—'} |`);
    }
  }
  return lines.join('\n');
}
