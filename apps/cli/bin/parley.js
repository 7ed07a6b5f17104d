#!/usr/bin/env node
import { main } from '../dist/bundle/parley.js';

// Ctrl-C stops starting scenarios and lets the run write what finished; a second Ctrl-C quits at once.
const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  interrupts += 1;
  if (interrupts > 1) process.exit(130);
  process.stderr.write('\nstopping: finishing reports for the scenarios that completed (Ctrl-C again to quit now)\n');
  controller.abort();
});

process.exitCode = await main(process.argv.slice(2), { signal: controller.signal });
