#!/usr/bin/env node
// A `command` agent: Parley starts one process per scenario and speaks JSON lines with it — one
// request line per user turn on stdin, one reply line on stdout. stderr is for logs (Parley shows
// it when the agent fails).
import { createInterface } from 'node:readline';
import { receptionist } from './receptionist.mjs';

console.error(`command agent started: scenario ${process.env.PARLEY_SCENARIO_ID}, tenant ${process.env.PARLEY_TENANT}`);
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() === '') continue;
  process.stdout.write(`${JSON.stringify(receptionist(JSON.parse(line)))}\n`);
}
