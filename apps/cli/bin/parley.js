#!/usr/bin/env node
// Node's modules are taken with process.getBuiltinModule, after the version check below (older
// Nodes lack it), not imported: an ES import of a built-in module makes Node load every module its
// exports reach (node:v8's ~30, node:fs's ~30), which `parley --version` does not need.

// Before anything else loads: on an older Node the SQLite module crashes outright (a segfault on
// Node 20), so say which Node is needed instead, and exit 2 (the run could not be evaluated).
const [nodeMajor, nodeMinor] = process.versions.node.split('.').map(Number);
if (nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 12)) {
  process.stderr.write(
    `parley: Node.js 22.12 or later is needed; this is Node.js ${process.versions.node}\n` +
      '  what to do: install Node.js 22 or 24 (for example `nvm install 22`), then `npm ci` again\n',
  );
  process.exit(2);
}

// `parley --version` answers from the package.json beside this file, before the bundle loads: it
// is the same version (a test holds them together) for a third of the time.
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  const { readFileSync } = process.getBuiltinModule('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}

// Node 24's V8 lets the young generation grow to 64 MiB per semi-space (Node 22's: 16 MiB): a
// 10,000-scenario replay peaks at ~400 MiB instead of ~275 MiB, for no measurable speed. The size
// is fixed when the process starts, so the commands that hold many results (`run`, `monitor`)
// restart themselves once in place (`process.execve`: same pid, same terminal, same signals) with
// Node 22's size, unless the user chose one (`--max-semi-space-size` in NODE_OPTIONS).
const semiSpaceFlag = '--max-semi-space-size=16';
const heavyCommand = process.argv[2] === 'run' || process.argv[2] === 'monitor';
const chosen = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((flag) => flag.includes('--max-semi-space-size'));
if (nodeMajor >= 24 && heavyCommand && !chosen && typeof process.execve === 'function' && process.platform !== 'win32') {
  try {
    process.execve(process.execPath, [process.execPath, semiSpaceFlag, ...process.execArgv, ...process.argv.slice(1)], process.env);
  } catch {
    // Where the process cannot be replaced it runs as it is, with V8's default size.
  }
}

// The heap may grow to one and a half times its live size before a full collection (V8's default
// lets it reach about four times): a 10,000-scenario replay holds every result until its reports
// are written, and peaked at 330-400 MiB with the default, 305-313 MiB at twice, 265-276 MiB here,
// for no more CPU (tools/bench/README.md). Set before the bundle is imported, so before the heap grows.
// Without a command (`parley --help`, a bare `parley`) there is no heap to keep small, nor for
// `parley validate`, which holds the suite it checks and no results; node:v8 loads ~30 of Node's
// modules (3 ms of validate's CPU).
const args = process.argv.slice(2);
const words = args.filter((arg) => !arg.startsWith('-'));
const command = words[0];
if (command !== undefined && command !== 'validate') process.getBuiltinModule('node:v8').setFlagsFromString('--heap-growing-percent=50');

const debug = Boolean(process.env.PARLEY_DEBUG) && process.env.PARLEY_DEBUG !== '0';
// With PARLEY_DEBUG=1 a stack names the TypeScript sources, not the minified bundle.
if (debug) process.setSourceMapsEnabled(true);

// A reader that goes away (`parley runs list | head`) is not an error. Output redirected to a
// full disk (`parley canary assign < ids > arms.tsv`) is the user's to fix: one line, exit 2.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (error.code === 'ENOSPC' || error.code === 'EDQUOT') {
      if (stream === process.stdout) process.stderr.write('error: standard output: disk full: what was written there is cut short; free some space and run again\n');
      process.exit(2);
    }
    throw error;
  });
}

// V8 keeps the bundle's compiled code on disk (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off), so a command after the first skips parsing and
// compiling what it loads: `parley tui`'s first frame and `calibrate report` each spent about
// 60 ms of CPU there (tools/bench/README.md). Where the cache cannot be written the call does
// nothing; it never throws.
process.getBuiltinModule('node:module').enableCompileCache?.();

let bundle;
try {
  bundle = await import('../dist/bundle/parley.js');
} catch (error) {
  // Without the bundle there is no one to explain: say it in one line, exit 2 (not evaluated).
  process.stderr.write(
    `parley: internal error: cannot load Parley: ${String(error?.message ?? error).split('\n')[0]}\n` +
      '  what to do: reinstall with `npm ci` (in a clone of Parley: `npm run build`)\n' +
      (debug ? `${error?.stack ?? error}\n` : '  (set PARLEY_DEBUG=1 to see the stack)\n'),
  );
  process.exit(2);
}
const { main, describeInternalError } = bundle;

// An error that escapes every handler still gets one readable line and exit 2, never a raw stack.
const internalError = (error) => {
  process.stderr.write(describeInternalError(error, process.env));
  process.exit(2);
};
process.on('uncaughtException', internalError);
process.on('unhandledRejection', internalError);

// Ctrl-C stops starting scenarios (or ratings) and lets the command keep what finished; a second
// Ctrl-C quits at once. For `parley run`, `parley monitor`, `parley calibrate judge` and
// `parley export`, SIGTERM (what CI runners, cron and `timeout` send) does the same, and the
// command then exits 143 (an export stopped half-way stays pending in the outbox); other commands
// end on SIGTERM as any process does.
const controller = new AbortController();
const paysPerItem = command === 'run' || command === 'monitor' || (command === 'calibrate' && words[1] === 'judge');
const graceful = paysPerItem || command === 'export' ? [['SIGINT', 130], ['SIGTERM', 143]] : [['SIGINT', 130]];
let interrupts = 0;
for (const [signal, code] of graceful) {
  process.on(signal, () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(code);
    const again = signal === 'SIGINT' ? 'Ctrl-C again to quit now' : 'SIGTERM again to quit now';
    // show-report has no reports to finish: Ctrl-C stops its server.
    if (command === 'show-report') process.stderr.write('\nstopping the report server\n');
    else process.stderr.write(`\nstopping (${signal}): keeping what completed, starting nothing new (${again})\n`);
    controller.abort(signal);
  });
}

// The bin's path tells `parley` from `npx parley` in the commands Parley prints (program/parley-command.ts).
process.exitCode = await main(args, { signal: controller.signal, bin: process.argv[1] });
