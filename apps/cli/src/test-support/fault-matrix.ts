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
const LOG_LINES = 'libs/production/src/log-lines.test.ts';

const notNetworked = (command: string): MatrixCell => ({ status: 'n/a', what: `${command} makes no network call` });
const unchecked = (what: string): MatrixCell => ({ status: 'open', what });

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
        what: 'every provider call has a deadline (`timeout_ms`, default 60 s) that names itself; a scenario has `settings.scenario_timeout_ms`',
        tests: [
          { file: 'libs/providers/src/timeout-provider.test.ts', title: '' },
          { file: 'apps/cli/src/module-agent-faults.test.ts', title: 'turns a hang' },
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
        what: '`--out` a file, read-only folders, a FIFO recording, a folder another run holds: exit 2, one line',
        tests: [{ file: RUN_PATHS, title: 'refuses an --out that is an existing file' }],
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
        what: 'the judges call providers through the same deadline as a run',
        tests: [{ file: 'libs/providers/src/timeout-provider.test.ts', title: '' }],
      },
      'bad input': {
        status: 'holds',
        what: 'a bad rating: exit 2 with file:line:column',
        tests: [{ file: 'apps/cli/src/commands/calibrate.test.ts', title: 'exits 2 with file:line:column for a bad rating' }],
      },
      'full disk': unchecked('not tried on a full disk yet'),
      paths: unchecked('not walked over the path cases yet (issue 24, item 12)'),
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
      paths: unchecked('not walked over the path cases yet (issue 24, item 12)'),
    },
  },
  {
    command: 'export',
    cells: {
      signals: unchecked('not tried with signals yet'),
      timeouts: {
        status: 'holds',
        what: 'every call to Langfuse (its API and its OTLP endpoint) has a connect and a total timeout (`PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS`, `PARLEY_LANGFUSE_TIMEOUT_MS`), each named when it fires: a server that takes the connection and never answers ends `export` (exit 1) and `run --export` (reports written, the gate\'s exit code); OTLP collectors: `OTEL_EXPORTER_OTLP_TIMEOUT` per request',
        tests: [
          { file: 'libs/langfuse/src/langfuse-client.test.ts', title: 'names the connect timeout' },
          { file: 'apps/cli/src/commands/export.test.ts', title: 'ends, naming the timeout, when Langfuse takes the connection and never answers' },
        ],
      },
      'bad input': {
        status: 'holds',
        what: 'refused keys: exit 2 with one line naming none of them',
        tests: [{ file: 'apps/cli/src/commands/export.test.ts', title: 'exits 2 with one clear line when Langfuse refuses the keys' }],
      },
      'full disk': { status: 'n/a', what: 'writes nothing but the export state in the run history (see `run`)' },
      paths: unchecked('not walked over the path cases yet (issue 24, item 12)'),
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
        what: 'a Langfuse that takes the connection and never answers: the connect timeout fires, named',
        tests: [{ file: 'apps/cli/src/commands/monitor-langfuse.test.ts', title: '' }],
      },
      'bad input': {
        status: 'holds',
        what: 'logs read as bounded lines (8 MiB) of UTF-8 from a regular file, errors summarised after 20; damaged logs: exit 2 with file:line, never a stack trace or a hang',
        tests: [
          { file: LOG_FUZZ, title: 'monitor, promote and canary compare exit 2' },
          { file: LOG_LINES, title: '' },
        ],
      },
      'full disk': unchecked('not tried on a full disk yet'),
      paths: unchecked('`--logs` on a FIFO, a folder or a device is refused at once (item 5, tested in monitor.test.ts); the other path cases are item 12'),
    },
  },
  {
    command: 'promote',
    cells: {
      signals: { status: 'n/a', what: 'pays for nothing; ends as any process does' },
      timeouts: unchecked('reads feedback through the Langfuse client (its timeouts); not tried against a server that never answers'),
      'bad input': {
        status: 'holds',
        what: 'the log and feedback read as bounded lines of UTF-8 (invalid bytes refused with file:line:column, never written into a scenario); damaged files: exit 2 with file:line',
        tests: [{ file: LOG_FUZZ, title: 'monitor, promote and canary compare exit 2' }],
      },
      'full disk': unchecked('new recordings and scenarios are written whole or not at all (write, fsync, link), but promote is not tried on a real full disk yet'),
      paths: unchecked('a file as `--out` (issue 24, item 12); symlinks (item 15)'),
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
      'full disk': unchecked('not tried on a full disk yet'),
      paths: unchecked('not walked over the path cases yet (issue 24, item 12)'),
    },
  },
  {
    command: 'init / generate',
    cells: {
      signals: { status: 'n/a', what: 'pays for nothing (`generate` pays for one call per scenario and writes each whole)' },
      timeouts: {
        status: 'holds',
        what: '`generate` calls providers through the same deadline as a run',
        tests: [{ file: 'libs/providers/src/timeout-provider.test.ts', title: '' }],
      },
      'bad input': unchecked('not fuzzed yet'),
      'full disk': {
        status: 'open',
        what: '`init`: each new file whole or absent at every fill level, exit 2 `disk full: nothing was changed`; `generate` writes its scenarios the same way but is not tried on a real full disk yet',
        tests: [{ file: DISK_FULL, title: 'parley init: a full disk leaves each new file whole or absent' }],
      },
      paths: {
        status: 'open',
        what: '`.gitignore` through a dangling link or one leading out of its folder: exit 2 before anything is written; a link to a file in the folder is written through. Open: a file as the target, a 300-character name (issue 24, item 12)',
        tests: [{ file: 'apps/cli/src/commands/init.test.ts', title: 'refuses to write .gitignore through a dangling link' }],
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
      'bad input': unchecked('`runs list` on a file that is not a database says "internal error" (issue 24, item 12)'),
      'full disk': { status: 'n/a', what: 'write nothing' },
      paths: unchecked('not walked over the path cases yet (issue 24, item 12)'),
    },
  },
];

/** The matrix as the doc shows it: a grid of statuses, then each cell that is not `n/a` with its tests. */
export function faultMatrixMarkdown(matrix: readonly MatrixRow[] = FAULT_MATRIX): string {
  const cells = matrix.flatMap((row) => FAULT_KINDS.map((kind) => row.cells[kind]));
  const count = (status: CellStatus) => cells.filter((cell) => cell.status === status).length;
  const lines = [
    `Figures: ${matrix.length} commands × ${FAULT_KINDS.length} kinds of fault = ${cells.length} cells: ${count('holds')} hold (each with its test), ${count('limit')} are known limits, ${count('open')} are open, ${count('n/a')} do not apply.`,
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
