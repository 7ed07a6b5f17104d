/**
 * The measured process of `npm run bench:monitor`: one `parley monitor` over a generated log,
 * in-process, with the judge answering at once (a Provider that returns a fixed verdict), so the
 * time is Parley's own work: streaming and sampling the log, masking, the state in SQLite, the
 * judging machinery (cache, budget, scores) and the window comparison, never a model's latency.
 *
 * `node tools/bench/dist/monitor-workload.js SUITE_DIR LOG_FILE` prints one JSON line: counts.
 */
import { join } from 'node:path';
import { systemClock, type Provider } from '@parley/core';
import { monitorConversations, readSampledConversations } from '@parley/monitor';
import { suiteRedactor } from '@parley/redaction';
import { loadSuiteForRun } from '@parley/runner';

const [suiteDir, logFile] = process.argv.slice(2);
if (suiteDir === undefined || logFile === undefined) {
  process.stderr.write('usage: monitor-workload SUITE_DIR LOG_FILE\n');
  process.exit(2);
}

const instantJudge: Provider = {
  async complete(request) {
    return {
      content: JSON.stringify({ score: 4, reason: 'The customer got a clear, polite answer.' }),
      tool_calls: [],
      usage: { input_tokens: Math.ceil(JSON.stringify(request.messages).length / 4), output_tokens: 30 },
      finish_reason: 'stop',
      model: request.model,
      latency_ms: 0,
    };
  },
};

const now = new Date();

const suite = loadSuiteForRun(suiteDir);
const sample = await readSampledConversations(logFile, { percent: 5, salt: 'parley-monitor', since: new Date(now.getTime() - 6 * 3_600_000) });
const outcome = await monitorConversations({
  suite,
  logsFile: logFile,
  conversations: sample.sampled,
  redactor: suiteRedactor(suite, { env: {} }),
  storePath: join(suiteDir, '.parley', 'parley.db'),
  clock: systemClock,
  env: {},
  dryRun: false,
  windowMs: 6 * 3_600_000,
  previousWindows: 4,
  judgeProvider: () => instantJudge,
});
process.stdout.write(
  `${JSON.stringify({ total: sample.total, sampled: outcome.sampled, already_judged: outcome.already_judged, judged: outcome.judged.length, errors: outcome.judged.filter((item) => item.status === 'error').length })}\n`,
);
