/**
 * `npm run bench:monitor -- [--conversations 100000] [--runs 3] [--keep]`: `parley monitor` over a
 * generated production log (see monitor-workload.ts), measured from outside: wall time and peak
 * RSS of the process. Two runs per repetition on a fresh store: the first judges the 5 % sample,
 * the second finds it judged already (the state path). Target: ≤ 5 s and ≤ 300 MiB each.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { measureCommand } from './measure-command.js';

const MONITOR_TARGET = { wallSeconds: 5, peakRssMiB: 300 };

const WORKLOAD = resolve(import.meta.dirname, 'monitor-workload.js');

const SUITE = `suite: bench_monitor
agents:
  booking: { kind: openai, model: gpt-4.1-mini, system_prompt: prompt.md }
judge:
  primary: { provider: openai, model: gpt-4.1, temperature: 0 }
defaults:
  expect:
    - { metric: service_quality, threshold: 0.6 }
redaction:
  restricted_verticals: [dental]
`;

const METRIC = `name: service_quality
version: 1.0.0
scale: { min: 1, max: 5 }
applies_to: conversation
rubric: |
  5: the customer got what they asked for, politely and clearly. 1: they did not.
`;

const NAMES = ['Grace Achieng', 'Amina Wanjiru', 'Peter Otieno', 'Faith Njeri', 'John Kamau'];

/** Writes `count` conversations (6 messages, a phone number and a name each) that ended within the hour. */
async function writeProductionLog(file: string, count: number): Promise<void> {
  const ended = new Date(Date.now() - 3_600_000).toISOString();
  const out = createWriteStream(file);
  for (let index = 0; index < count; index += 1) {
    const name = NAMES[index % NAMES.length]!;
    const phone = `07${String(22_000_000 + index).padStart(8, '0')}`;
    const line = JSON.stringify({
      conversation_id: `wa:254${phone.slice(1)}:2026-11-${String(1 + (index % 28)).padStart(2, '0')}`,
      tenant: 'zuri_spa',
      vertical: index % 50 === 0 ? 'dental' : 'salon',
      prompt_version: index % 20 === 0 ? 'booking@canary1' : 'booking@stable1',
      customer: { name },
      turns: [
        { role: 'user', content: `Hi, it's ${name}, ${phone}. A blow-dry on Thursday afternoon please.`, timestamp: ended },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'check_availability', args: { service: 'blowdry', day: 'thursday' } }], timestamp: ended },
        { role: 'tool', tool_call_id: 'c1', content: '{"slots":["14:00","15:00"],"price_kes":1200}', timestamp: ended },
        { role: 'assistant', content: `Karibu ${name.split(' ')[0]}! 14:00 or 15:00 on Thursday, KES 1200.`, timestamp: ended },
        { role: 'user', content: '15:00 please, my email is customer@example.com', timestamp: ended },
        { role: 'assistant', content: 'Booked for Thursday 15:00, BK-1057. See you then!', timestamp: ended },
      ],
    });
    if (!out.write(`${line}\n`)) await new Promise<void>((resolveDrain) => out.once('drain', () => resolveDrain()));
  }
  await new Promise<void>((resolveEnd, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolveEnd())));
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { conversations: { type: 'string', default: '100000' }, runs: { type: 'string', default: '3' }, keep: { type: 'boolean' } } });
  const count = Number(values.conversations);
  const runs = Number(values.runs);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(runs) || runs < 1) {
    process.stderr.write('usage: bench:monitor [--conversations N] [--runs N] [--keep]\n');
    return 2;
  }
  const root = mkdtempSync(join(tmpdir(), 'parley-bench-monitor-'));
  try {
    const log = join(root, 'conversations.jsonl');
    process.stderr.write(`writing ${count} conversations…\n`);
    await writeProductionLog(log, count);
    const rows: string[] = [];
    let missed = false;
    for (let run = 1; run <= runs; run += 1) {
      const suite = join(root, `suite-${run}`);
      mkdirSync(join(suite, 'metrics'), { recursive: true });
      writeFileSync(join(suite, 'parley.yaml'), SUITE);
      writeFileSync(join(suite, 'prompt.md'), 'You are the booking assistant.\n');
      writeFileSync(join(suite, 'metrics', 'service_quality.yaml'), METRIC);
      for (const pass of ['judges the sample', 'all judged before']) {
        const output = join(root, `run-${run}-${pass.split(' ')[0]}.log`);
        const measured = await measureCommand({ argv: [process.execPath, WORKLOAD, suite, log], cwd: root, logFile: output });
        if (measured.exitCode !== 0) throw new Error(`the workload failed (exit ${measured.exitCode}); see ${output}`);
        const rss = (measured.peakRssKiB ?? 0) / 1024;
        const over = measured.wallSeconds > MONITOR_TARGET.wallSeconds || rss > MONITOR_TARGET.peakRssMiB;
        missed ||= over;
        rows.push(`${String(run).padStart(3)}  ${pass.padEnd(18)}  ${measured.wallSeconds.toFixed(3).padStart(8)}  ${rss.toFixed(1).padStart(14)}  ${(measured.cpuSeconds ?? 0).toFixed(3).padStart(7)}  ${over ? 'over' : 'ok'}`);
      }
    }
    process.stdout.write(`parley monitor over ${count.toLocaleString('en-US')} logged conversations (5 % sample, judge answering at once)\n`);
    process.stdout.write(`run  pass                wall (s)  peak RSS (MiB)  cpu (s)  verdict (≤ ${MONITOR_TARGET.wallSeconds} s, ≤ ${MONITOR_TARGET.peakRssMiB} MiB)\n`);
    process.stdout.write(`${rows.join('\n')}\n`);
    return missed ? 1 : 0;
  } finally {
    if (!values.keep) rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      process.stderr.write(`bench:monitor: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
