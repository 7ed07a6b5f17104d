import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BaselineSchema } from '@parley/config';
import { loadFakeScript, startFakeLlm } from '@parley/fake-llm';
import { readReportFile } from '@parley/reports';
import { copyExample, REPO_ROOT } from './test-support/example-copy.js';
import { parleyAsync, type ParleyProcessResult } from './test-support/parley-process.js';

const NO_NETWORK = join(REPO_ROOT, 'apps/cli/src/test-support/no-network.cjs');
/** Several `parley` processes one after another: more than the default 30 s on a busy machine. */
const PROCESSES_TIMEOUT_MS = 240_000;

const LANGUAGES = ['en', 'sw', 'zu'];
const PERSONAS = ['careful', 'rushed'];
const IDS = LANGUAGES.flatMap((lang) => PERSONAS.map((persona) => `book_massage[lang=${lang},persona=${persona}]`));

/** The real binary offline: any network attempt is logged (and refused) by no-network.cjs. */
async function offline(cwd: string, args: string[]): Promise<ParleyProcessResult & { networkAttempts: string }> {
  const networkLog = join(cwd, 'network.log');
  rmSync(networkLog, { force: true });
  const run = await parleyAsync(args, { cwd, env: { PARLEY_NETWORK_LOG: networkLog }, nodeArgs: ['--require', NO_NETWORK] });
  return { ...run, networkAttempts: existsSync(networkLog) ? readFileSync(networkLog, 'utf8') : '' };
}

const lines = (text: string): string[] => text.split('\n').filter((line) => line.length > 0);

function editScenario(suite: string, edit: (text: string) => string): void {
  const file = join(suite, 'scenarios', 'book_massage.yaml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
}

describe('scenario variants through the parley binary (examples/variants: 3 languages × 2 personas)', () => {
  it('records the six variants against fake-llm, one recording each, and replays them offline, each judged for fluency in its own language', async () => {
    const suite = copyExample('variants');
    rmSync(join(suite, 'recordings'), { recursive: true });
    const fake = await startFakeLlm({ script: loadFakeScript(join(suite, 'fake-llm.yaml')) });
    try {
      const recorded = await parleyAsync(['run', '.', '--mode', 'record', '--out', 'recorded'], {
        cwd: suite,
        env: { OPENAI_API_KEY: 'sk-fake-llm-local', ANTHROPIC_API_KEY: 'sk-ant-fake-llm-local', OPENAI_BASE_URL: fake.openaiBaseUrl, ANTHROPIC_BASE_URL: fake.anthropicBaseUrl },
      });
      expect(recorded.status, recorded.stderr).toBe(0);
      // Per variant: the simulated customer twice, the agent twice, the judge once; every call scripted.
      expect(fake.requests.filter((request) => request.api !== 'control')).toHaveLength(IDS.length * 5);
      expect(fake.requests.filter((request) => request.api !== 'control' && request.rule === null)).toEqual([]);
    } finally {
      await fake.close();
    }
    expect(readdirSync(join(suite, 'recordings')).sort()).toEqual(IDS.map((id) => `${id}.jsonl`));
    // The isiZulu recording holds the isiZulu conversation: the variant's values reached the simulator and the tool mock.
    const zulu = readFileSync(join(suite, 'recordings', 'book_massage[lang=zu,persona=rushed].jsonl'), 'utf8');
    expect(zulu).toContain('Who you are: A rushed customer of a Nairobi spa.');
    expect(zulu).toContain('Write every message in isiZulu (zu)');
    expect(zulu).toContain('\\"language\\":\\"zu\\"');

    const replayed = await offline(suite, ['run', '.', '--out', 'replayed']);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.networkAttempts).toBe('');
    const report = readReportFile(join(suite, 'replayed', 'report.json'));
    expect(report.mode).toBe('replay');
    expect(report.results.map((result) => [result.scenario_id, result.status])).toEqual(IDS.map((id) => [id, 'pass']));
    for (const result of report.results) {
      const lang = /lang=([a-z]+)/.exec(result.scenario_id)![1]!;
      expect(result.metrics.map((metric) => metric.metric)).toEqual(['tool_correctness', 'content_signals', `fluency_${lang}`]);
      expect(result.metrics.every((metric) => metric.passed)).toBe(true);
    }
    const junit = readFileSync(join(suite, 'replayed', 'junit.xml'), 'utf8');
    expect(junit).toContain('name="book_massage[lang=sw,persona=careful]"');
  }, PROCESSES_TIMEOUT_MS);

  it('adding a value leaves the other variants’ ids, shards and baseline entries as they were', async () => {
    const suite = copyExample('variants');
    const listed = await offline(suite, ['run', '.', '--list']);
    expect(lines(listed.stdout)).toEqual(IDS);
    const shardsBefore = await Promise.all(['1/2', '2/2'].map(async (shard) => lines((await offline(suite, ['run', '.', '--shard', shard, '--list'])).stdout)));
    expect(shardsBefore.flat().sort()).toEqual(IDS);
    expect(shardsBefore.every((ids) => ids.length > 0)).toBe(true);
    const exported = await offline(suite, ['run', '.', '--export-baseline', 'before.json', '--out', 'before']);
    expect(exported.status, exported.stderr).toBe(0);
    const before = BaselineSchema.parse(JSON.parse(readFileSync(join(suite, 'before.json'), 'utf8')));
    expect(new Set(before.entries.map((entry) => entry.test_id))).toEqual(new Set(IDS));

    editScenario(suite, (text) => text.replace('lang: [en, sw, zu]', 'lang: [xh, en, sw, zu]'));
    const added = IDS.concat(PERSONAS.map((persona) => `book_massage[lang=xh,persona=${persona}]`)).sort();
    expect(lines((await offline(suite, ['run', '.', '--list'])).stdout)).toEqual(added);
    const shardsAfter = await Promise.all(['1/2', '2/2'].map(async (shard) => lines((await offline(suite, ['run', '.', '--shard', shard, '--list'])).stdout)));
    shardsAfter.forEach((ids, index) => expect(ids.filter((id) => !id.includes('lang=xh'))).toEqual(shardsBefore[index]));

    // The old variants replay as before: gated on the old baseline, every entry is compared and none regressed.
    const old = ['--exclude', 'book_massage\\[lang=xh,*'];
    const gated = await offline(suite, ['run', '.', ...old, '--baseline', 'before.json', '--out', 'gated']);
    expect(gated.status, gated.stderr).toBe(0);
    expect(readReportFile(join(suite, 'gated', 'report.json')).baseline).toMatchObject({ compared: before.entries.length, missing: 0, regressions: 0, below_floor: 0 });
    const again = await offline(suite, ['run', '.', ...old, '--export-baseline', 'after.json', '--out', 'after']);
    expect(again.status, again.stderr).toBe(0);
    const after = BaselineSchema.parse(JSON.parse(readFileSync(join(suite, 'after.json'), 'utf8')));
    expect(after.entries).toEqual(before.entries);
  }, PROCESSES_TIMEOUT_MS);

  it('fills parley.yaml’s default expectations with each variant’s values: the replay checks the isiZulu tool call for "zu", report.json carries the values, and validate locates a {{name}} a scenario lacks', async () => {
    const suite = copyExample('variants');
    // The scenario's tool check moves into parley.yaml's defaults, written once for every language.
    editScenario(suite, (text) => text.replace(/  # The agent looks the day up.*\n  - metric: tool_correctness\n    expected: .*\n/, ''));
    expect(readFileSync(join(suite, 'scenarios', 'book_massage.yaml'), 'utf8')).not.toContain('tool_correctness');
    const suiteFile = join(suite, 'parley.yaml');
    writeFileSync(
      suiteFile,
      `${readFileSync(suiteFile, 'utf8')}\ndefaults:\n  expect:\n    - metric: tool_correctness\n      expected: [{ name: check_availability, args: { date: "2026-11-28", language: "{{lang}}" } }]\n`,
    );
    const replayed = await offline(suite, ['run', '.', '--out', 'replayed']);
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.networkAttempts).toBe('');
    const report = readReportFile(join(suite, 'replayed', 'report.json'));
    for (const result of report.results) {
      const [, lang, persona] = /lang=([a-z]+),persona=([a-z]+)/.exec(result.scenario_id)!;
      expect(result.vars).toEqual({ lang, persona });
      const tools = result.metrics.find((metric) => metric.metric === 'tool_correctness')!;
      expect(tools.passed, `${result.scenario_id}: ${tools.reason}`).toBe(true);
    }
    // Written for another language, the default fails every variant but that language's.
    writeFileSync(suiteFile, readFileSync(suiteFile, 'utf8').replace('"2026-11-28", language: "{{lang}}"', '"2026-11-28", language: "zu"'));
    const fixed = await offline(suite, ['run', '.', '--out', 'fixed']);
    expect(fixed.status).toBe(1);
    expect(readReportFile(join(suite, 'fixed', 'report.json')).results.filter((result) => result.status === 'pass').map((result) => result.scenario_id)).toEqual(IDS.filter((id) => id.includes('lang=zu')));

    // A scenario without variables inherits the same default: its {{lang}} is an error in parley.yaml, where it is written.
    writeFileSync(suiteFile, readFileSync(suiteFile, 'utf8').replace('"2026-11-28", language: "zu"', '"2026-11-28", language: "{{lang}}"'));
    writeFileSync(join(suite, 'scenarios', 'plain_greeting.yaml'), 'id: plain_greeting\nagent: booking\nuser:\n  opening: "Hello"\n');
    const validate = await offline(suite, ['validate', '.']);
    expect(validate.status).toBe(2);
    const text = readFileSync(suiteFile, 'utf8').split('\n');
    const line = text.findIndex((row) => row.includes('"2026-11-28", language: "{{lang}}"')) + 1;
    const column = text[line - 1]!.indexOf('{{lang}}') + 1;
    expect(validate.stderr).toContain(`parley.yaml:${line}:${column}: unknown variable {{lang}} for scenario plain_greeting (no vars: or cases:), which inherits this expectation`);
  }, PROCESSES_TIMEOUT_MS);

  it('composes with --agent (<scenario>[…]@<agent>), selects by --scenario and --grep, reruns --last-failed variants, and validate locates an unknown {{name}}', async () => {
    const suite = copyExample('variants');
    writeFileSync(
      join(suite, 'parley.yaml'),
      readFileSync(join(suite, 'parley.yaml'), 'utf8').replace('\n# The simulated customer', '  booking_v2:\n    kind: openai\n    model: gpt-4.1-mini\n    system_prompt: prompts/booking.md\n    tools: tools/booking.json\n\n# The simulated customer'),
    );
    const compared = await offline(suite, ['run', '.', '--agent', 'booking', '--agent', 'booking_v2', '--scenario', 'book_massage[lang=zu,persona=rushed]', '--list']);
    expect(compared.status, compared.stderr).toBe(0);
    expect(lines(compared.stdout)).toEqual(['book_massage[lang=zu,persona=rushed]', 'book_massage[lang=zu,persona=rushed]@booking_v2']);
    expect(lines((await offline(suite, ['run', '.', '--scenario', 'book_massage', '--grep', 'lang=sw', '--list'])).stdout)).toEqual(IDS.filter((id) => id.includes('lang=sw')));

    // isiZulu replies say "Kusasa": forbidding it fails the two isiZulu variants, and only those run again.
    editScenario(suite, (text) => text.replace('required: ["10:00"]', 'required: ["10:00"]\n    forbidden: ["Kusasa"]'));
    const failing = await offline(suite, ['run', '.', '--out', 'failing']);
    expect(failing.status, failing.stderr).toBe(1);
    const lastFailed = await offline(suite, ['run', '.', '--last-failed', '--list']);
    expect(lines(lastFailed.stdout)).toEqual(IDS.filter((id) => id.includes('lang=zu')));

    const valid = await offline(suite, ['validate', '.']);
    expect(valid.stdout).toContain('valid: suite ratiba_variants · 1 scenario (6 cases) · 2 agents');
    editScenario(suite, (text) => text.replace('persona: "A {{persona}} customer', 'persona: "A {{persna}} customer'));
    const validate = await offline(suite, ['validate', '.']);
    expect(validate.status).toBe(2);
    const text = readFileSync(join(suite, 'scenarios', 'book_massage.yaml'), 'utf8');
    const line = text.split('\n').findIndex((row) => row.includes('{{persna}}')) + 1;
    const column = text.split('\n')[line - 1]!.indexOf('{{persna}}') + 1;
    expect(validate.stderr).toContain(`scenarios/book_massage.yaml:${line}:${column}: unknown variable {{persna}}; the scenario's variables are lang, persona`);
  }, PROCESSES_TIMEOUT_MS);
});
