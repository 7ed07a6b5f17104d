#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// The heap may grow to twice its live size before a full collection (V8's default lets it reach
// about four times): a 10,000-scenario replay peaks at ~270 MiB instead of 330-400 MiB, as fast.
// Set before the bundle is imported, so before the heap grows.
setFlagsFromString('--heap-growing-percent=100');

const { main } = await import('../dist/bundle/parley.js');

// Ctrl-C stops starting scenarios and lets the run write what finished; a second Ctrl-C quits at once.
// For `parley run`, SIGTERM (what CI runners and `timeout` send) does the same, and the run then
// exits 143; other commands end on SIGTERM as any process does.
const controller = new AbortController();
const args = process.argv.slice(2);
const graceful = args.find((arg) => !arg.startsWith('-')) === 'run' ? [['SIGINT', 130], ['SIGTERM', 143]] : [['SIGINT', 130]];
let interrupts = 0;
for (const [signal, code] of graceful) {
  process.on(signal, () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(code);
    const again = signal === 'SIGINT' ? 'Ctrl-C again to quit now' : 'SIGTERM again to quit now';
    process.stderr.write(`\nstopping (${signal}): finishing reports for the scenarios that completed (${again})\n`);
    controller.abort(signal);
  });
}

process.exitCode = await main(args, { signal: controller.signal });
