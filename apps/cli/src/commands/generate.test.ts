import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadFakeScript, startFakeLlm, type FakeLlmServer, type FakeScript } from '@parley/fake-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { interruptOnHang, parleyAsync } from '../test-support/parley-process.js';

/** The description the committed recording of examples/generate answers (README.md shows it). */
const DESCRIPTION =
  'A booking assistant for a chain of unisex hair salons in the Bay Area: it finds salons by city, gives their rating, phone and address, and books appointments. Test a customer who changes the time, one who gives no date, a refund it must refuse, a prompt injection, and a city with no salon.';
const SGD_FILE = 'data/sgd_salon_dialogues.json';

/** A private copy of examples/generate. */
function exampleCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-generate-'));
  cpSync(join(REPO_ROOT, 'examples', 'generate'), dir, { recursive: true });
  return dir;
}

function yamlFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.yaml')).sort() : [];
}

let fake: FakeLlmServer;
/** Provider settings that reach the fake server: a replay that called a model would show up in its log. */
let fakeEnv: NodeJS.ProcessEnv;
beforeAll(async () => {
  fake = await startFakeLlm({ script: loadFakeScript(join(REPO_ROOT, 'examples/generate/fake-llm.yaml')), port: 0 });
  fakeEnv = { OPENAI_API_KEY: 'sk-generate-test-SECRET-1234', OPENAI_BASE_URL: fake.openaiBaseUrl, ANTHROPIC_BASE_URL: fake.anthropicBaseUrl };
});
afterAll(async () => {
  await fake.close();
});
const modelCalls = () => fake.requests.filter((request) => request.api !== 'control').length;

describe('parley generate --from (the simulator model drafts scenarios)', () => {
  it('drafts 5 scenarios of examples/generate offline from the committed recording; all validate as advisory', async () => {
    const suite = exampleCopy();
    const before = modelCalls();
    const result = await parleyAsync(['generate', '--from', DESCRIPTION, '--count', '5'], { cwd: suite, env: fakeEnv });
    expect(result.status, result.stderr).toBe(0);
    expect(modelCalls()).toBe(before); // replayed: no call reached the model
    const written = yamlFiles(join(suite, 'scenarios', 'generated'));
    expect(written).toEqual(['salon_change_time.yaml', 'salon_city_without_salons.yaml', 'salon_missing_date.yaml', 'salon_prompt_injection.yaml', 'salon_refund_refused.yaml']);
    expect(result.stdout).toMatch(/^drafted 5 scenarios of 5 into scenarios\/generated \(gate: advisory\)$/m);
    expect(result.stdout).toMatch(/openai:gpt-4\.1-mini · replay · 1 call/);
    expect(result.stdout).not.toMatch(/\u001b\[/); // NO_COLOR, not a terminal
    for (const line of result.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);

    const change = readFileSync(join(suite, 'scenarios', 'generated', 'salon_change_time.yaml'), 'utf8');
    expect(change).toMatch(/^gate: advisory$/m);
    expect(change).toMatch(/persona: Dana, 41/);
    expect(change).toMatch(/- metric: tool_correctness/);
    expect(change).toMatch(/^# Drafted by `parley generate` with openai:gpt-4\.1-mini/);

    const validate = await parleyAsync(['validate', '.', '--format', 'json'], { cwd: suite });
    expect(validate.status, validate.stdout).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ valid: true, scenarios: 5 });
  });

  it('never overwrites: the same command again writes the drafts under free names and leaves the first files as they were', async () => {
    const suite = exampleCopy();
    const first = await parleyAsync(['generate', '--from', DESCRIPTION, '--count', '5'], { cwd: suite });
    expect(first.status, first.stderr).toBe(0);
    const file = join(suite, 'scenarios', 'generated', 'salon_refund_refused.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# reviewed by a person\n`);
    const second = await parleyAsync(['generate', '--from', DESCRIPTION, '--count', '5', '--format', 'json'], { cwd: suite });
    expect(second.status, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout) as { written: Array<{ id: string; renamed_from?: string }> };
    expect(report.written.map((item) => item.id)).toContain('salon_refund_refused_2');
    expect(report.written.every((item) => item.renamed_from === item.id.replace(/_2$/, ''))).toBe(true);
    expect(readFileSync(file, 'utf8')).toMatch(/# reviewed by a person\n$/);
    expect(yamlFiles(join(suite, 'scenarios', 'generated'))).toHaveLength(10);
    expect((await parleyAsync(['validate', '.'], { cwd: suite })).status).toBe(0);
  });

  it('records through the real OpenAI client against tools/fake-llm, and replays the new recording', async () => {
    const suite = exampleCopy();
    const description = 'A booking assistant for a chain of unisex hair salons: test a walk-in customer.';
    const script: FakeScript = {
      rules: [
        {
          name: 'drafts',
          when: { api: 'openai', last_user: '/Write 5 test scenarios/' },
          reply: { content: JSON.stringify({ scenarios: draftsFromExample() }) },
        },
      ],
    };
    const server = await startFakeLlm({ script, port: 0 });
    try {
      const env = { OPENAI_API_KEY: 'sk-generate-test-SECRET-5678', OPENAI_BASE_URL: server.openaiBaseUrl };
      const recorded = await parleyAsync(['generate', '--from', description, '--mode', 'record', '--out', 'drafts-a'], { cwd: suite, env });
      expect(recorded.status, recorded.stderr).toBe(0);
      expect(server.requests.filter((request) => request.rule === 'drafts')).toHaveLength(1);
      expect(recorded.stdout).toMatch(/record · 1 call · \$\d+\.\d{4} · recorded to\s+recordings\/generate\/a-booking-assistant-for-a-[0-9a-f]{8}\.jsonl/);
      const recordings = readdirSync(join(suite, 'recordings', 'generate'));
      expect(recordings).toHaveLength(2);
      const text = recordings.map((name) => readFileSync(join(suite, 'recordings', 'generate', name), 'utf8')).join('');
      expect(text).not.toContain('SECRET');
      expect(text).toContain('"response_schema"');

      const replayed = await parleyAsync(['generate', '--from', description, '--out', 'drafts-b'], { cwd: suite, env });
      expect(replayed.status, replayed.stderr).toBe(0);
      expect(server.requests.filter((request) => request.rule === 'drafts')).toHaveLength(1);
      expect(yamlFiles(join(suite, 'drafts-b'))).toEqual(yamlFiles(join(suite, 'drafts-a')));
      expect(yamlFiles(join(suite, 'drafts-b'))).toHaveLength(5);
    } finally {
      await server.close();
    }
  });

  it('sends an invalid draft back with its problems, and reports one that stays invalid (exit 1, the valid ones written)', async () => {
    const suite = exampleCopy();
    const [good, second] = draftsFromExample();
    const badId = { ...good!, id: 'Bad Id!' };
    const unknownTool = { ...second!, id: 'salon_wrong_tool', expected_tools: ['cancel_booking'] };
    const script: FakeScript = {
      rules: [
        { name: 'repair-id', when: { api: 'openai', last_user: '/Scenario 1 of your answer has these problems/' }, reply: { content: JSON.stringify({ ...good!, id: 'salon_fixed_id' }) } },
        { name: 'repair-tool', when: { api: 'openai', any_message: '/cancel_booking/', last_user: '/problems/' }, reply: { content: JSON.stringify(unknownTool) } },
        { name: 'batch', when: { api: 'openai', last_user: '/Write 2 test scenarios/' }, reply: { content: JSON.stringify({ scenarios: [badId, unknownTool] }) } },
      ],
    };
    const server = await startFakeLlm({ script, port: 0 });
    try {
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl };
      const result = await parleyAsync(['generate', '--from', 'salon agent: two tests', '--count', '2', '--mode', 'live'], { cwd: suite, env });
      expect(result.status, result.stderr).toBe(1);
      expect(server.requests.map((request) => request.rule)).toEqual(['batch', 'repair-id', 'repair-tool', 'repair-tool']);
      expect(yamlFiles(join(suite, 'scenarios', 'generated'))).toEqual(['salon_fixed_id.yaml']);
      expect(result.stdout).toMatch(/drafted 1 scenario of 2/);
      expect(result.stdout.replace(/\s+/g, ' ')).toContain(`rejected draft 2 (salon_wrong_tool): expected_tools: "cancel_booking" is not a tool of the agent; the agent's tools are find_salon, book_appointment`);
      expect(result.stdout).toMatch(/1 draft repaired/);
      expect((await parleyAsync(['validate', '.'], { cwd: suite })).status).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('Ctrl-C while the model drafts is an interruption: exit 130, nothing written, no recording (was exit 1 "aborted")', async () => {
    const suite = exampleCopy();
    const recordings = join(suite, 'recordings', 'generate');
    const before = readdirSync(recordings);
    const server = await startFakeLlm({ script: { rules: [{ name: 'hang', fault: { kind: 'hang' } }] }, port: 0 });
    try {
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.openaiBaseUrl };
      const result = await parleyAsync(['generate', '--from', 'salon agent: two tests', '--count', '2', '--mode', 'record'], { cwd: suite, env, onSpawn: interruptOnHang(server) });
      expect(result.status, result.stderr).toBe(130);
      expect(result.stderr).toContain('interrupted (SIGINT): nothing was written');
      expect(result.stderr).not.toMatch(/aborted|internal error/);
      expect(yamlFiles(join(suite, 'scenarios', 'generated'))).toEqual([]);
      expect(readdirSync(recordings), 'no recording of the cut-short draft').toEqual(before);
    } finally {
      await server.close();
    }
  });

  it('a description without a recording in replay mode is an error naming the command that records it; nothing written', async () => {
    const suite = exampleCopy();
    const result = await parleyAsync(['generate', '--from', 'something else entirely', '--mode', 'replay'], { cwd: suite });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/replay_miss: recording miss .* no recording at .*recordings\/generate\/something-else-entirely-[0-9a-f]{8}\.jsonl/);
    expect(result.stderr).toContain("parley generate --suite . --from 'something else entirely' --mode record");
    expect(existsSync(join(suite, 'scenarios'))).toBe(false);
  });

  it('a suite without a simulator cannot draft: exit 2 naming parley.yaml', async () => {
    const suite = exampleCopy();
    writeFileSync(join(suite, 'parley.yaml'), readFileSync(join(suite, 'parley.yaml'), 'utf8').replace(/^simulator:.*$/m, ''));
    const result = await parleyAsync(['generate', '--from', DESCRIPTION], { cwd: suite });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/parley\.yaml: parley generate --from drafts with the suite's simulator model/);
  });
});

describe('parley generate --from-dataset (scripted scenarios, no model)', () => {
  it('turns 10 SGD dialogues into scripted scenarios that validate; a second run skips them (never overwrites)', async () => {
    const suite = exampleCopy();
    const result = await parleyAsync(['generate', '--from-dataset', SGD_FILE, '--count', '10'], { cwd: suite });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.replace(/\s+/g, ' ')).toMatch(/^wrote 10 scripted scenarios from the SGD dialogues into scenarios\/from_dataset \(gate: advisory\) /);
    for (const line of result.stdout.split('\n')) expect(line.length, line).toBeLessThan(80);
    const files = yamlFiles(join(suite, 'scenarios', 'from_dataset'));
    expect(files).toHaveLength(10);
    expect(files[0]).toBe('sgd_train_29_00053.yaml');
    const first = readFileSync(join(suite, 'scenarios', 'from_dataset', 'sgd_train_29_00053.yaml'), 'utf8');
    expect(first).toMatch(/^ {2}opening: I want to find a salon that is unisex\.$/m);
    expect(first).toMatch(/^ {4}- A salon in Concord sounds like a good idea\.$/m);
    expect(first).toMatch(/source: sgd:sgd_salon_dialogues\.json#29_00053/);
    expect(first).toMatch(/content: What city should I go to look for it\?/);
    expect(first).toMatch(/CC BY-SA 4\.0/);
    const validate = await parleyAsync(['validate', '.', '--format', 'json'], { cwd: suite });
    expect(validate.status, validate.stdout).toBe(0);
    expect(JSON.parse(validate.stdout)).toMatchObject({ valid: true, scenarios: 10 });

    const before = readFileSync(join(suite, 'scenarios', 'from_dataset', 'sgd_train_29_00053.yaml'), 'utf8');
    const again = await parleyAsync(['generate', '--from-dataset', SGD_FILE, '--count', '11', '--format', 'json'], { cwd: suite });
    expect(again.status, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as { written: Array<{ id: string }>; skipped: Array<{ reason: string }> };
    expect(report.written.map((item) => item.id)).toEqual(['sgd_train_29_00063']);
    expect(report.skipped).toHaveLength(10);
    expect(report.skipped[0]!.reason).toBe('already there: the suite has a scenario "sgd_train_29_00053"');
    expect(readFileSync(join(suite, 'scenarios', 'from_dataset', 'sgd_train_29_00053.yaml'), 'utf8')).toBe(before);
  });

  it('masks a production log with the suite redactor and refuses a restricted vertical before writing anything', async () => {
    const suite = exampleCopy();
    writeFileSync(join(suite, 'parley.yaml'), `${readFileSync(join(suite, 'parley.yaml'), 'utf8')}\nredaction:\n  restricted_verticals: [dental]\n`);
    // Adapted from SGD dialogue 29_00055 (CC BY-SA 4.0): a name and a phone number added.
    const salon = {
      conversation_id: 'wa:254722118904:2026-11-27',
      vertical: 'salon',
      language: 'en',
      customer: { name: 'Grace Achieng' },
      turns: [
        { role: 'user', content: "Find me a unisex salon in Concord. It's Grace Achieng, +254 722 118 904." },
        { role: 'assistant', content: 'Breds Barbershop in Concord is rated 3.7.' },
        { role: 'user', content: 'Book it for March 13th at 18:30.' },
        { role: 'assistant', content: 'Booked, Grace!' },
      ],
    };
    const dentist = { conversation_id: 'wa:254700111222:2026-11-29', vertical: 'dental', turns: [{ role: 'user', content: 'My teeth hurt.' }] };
    writeFileSync(join(suite, 'logs.jsonl'), `${JSON.stringify(salon)}\n${JSON.stringify(dentist)}\n`);
    const refused = await parleyAsync(['generate', '--from-dataset', 'logs.jsonl'], { cwd: suite });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/logs\.jsonl:2:1: conversation .*"dental" is a restricted vertical/);
    expect(existsSync(join(suite, 'scenarios'))).toBe(false);

    writeFileSync(join(suite, 'logs.jsonl'), `${JSON.stringify(salon)}\n`);
    const result = await parleyAsync(['generate', '--from-dataset', 'logs.jsonl'], { cwd: suite });
    expect(result.status, result.stderr).toBe(0);
    const [file] = yamlFiles(join(suite, 'scenarios', 'from_dataset'));
    const text = readFileSync(join(suite, 'scenarios', 'from_dataset', file!), 'utf8');
    expect(file).toMatch(/^prod_[0-9a-f]{12}\.yaml$/);
    expect(text).toMatch(/opening: "?Find me a unisex salon in Concord/);
    expect(text).toMatch(/- Book it for March 13th at 18:30\./);
    for (const personal of ['Grace', 'Achieng', '722 118 904', '254722118904']) expect(text).not.toContain(personal);
    expect((await parleyAsync(['validate', '.'], { cwd: suite })).status).toBe(0);
  });

  it('bad input is exit 2 naming the file (and line:column where there is one); nothing written', async () => {
    const suite = exampleCopy();
    const missing = await parleyAsync(['generate', '--from-dataset', 'nowhere.json'], { cwd: suite });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/error: .*nowhere\.json: cannot read the dataset: file not found/);

    writeFileSync(join(suite, 'broken.json'), '{\n  "dialogues": [\n    { "dialogue_id": "1", "turns": [ }\n  ]\n}\n');
    const broken = await parleyAsync(['generate', '--from-dataset', 'broken.json'], { cwd: suite });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(/broken\.json:3:\d+: invalid JSON/);

    writeFileSync(join(suite, 'broken.jsonl'), '{"conversation_id": "a", "turns": [{"role": "user", "content": "hi"}]}\n{"conversation_id": "b", "turns": [}\n');
    const brokenLog = await parleyAsync(['generate', '--from-dataset', 'broken.jsonl'], { cwd: suite });
    expect(brokenLog.status).toBe(2);
    expect(brokenLog.stderr).toMatch(/broken\.jsonl:2:36: invalid JSON/);

    writeFileSync(join(suite, 'shape.json'), '[{"dialogue_id": "1", "turns": [{"speaker": "BOT", "utterance": "hi"}]}]\n');
    const shape = await parleyAsync(['generate', '--from-dataset', 'shape.json'], { cwd: suite });
    expect(shape.status).toBe(2);
    expect(shape.stderr).toMatch(/shape\.json:1:\d+: .*expected SGD dialogues/);

    const neither = await parleyAsync(['generate'], { cwd: suite });
    expect(neither.status).toBe(2);
    expect(neither.stderr).toMatch(/needs one of --from TEXT .* or --from-dataset FILE/);
    expect(existsSync(join(suite, 'scenarios'))).toBe(false);
  });

  it('colours the summary only when asked (FORCE_COLOR=1), never under NO_COLOR', async () => {
    const suite = exampleCopy();
    const coloured = await parleyAsync(['generate', '--from-dataset', SGD_FILE, '--count', '1'], { cwd: suite, env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(coloured.status, coloured.stderr).toBe(0);
    expect(coloured.stdout).toMatch(/\u001b\[/);
    const plain = await parleyAsync(['generate', '--from-dataset', SGD_FILE, '--count', '2'], { cwd: suite });
    expect(plain.stdout).not.toMatch(/\u001b\[/);
  });
});

/** The five drafts of the example's fake-llm.yaml, as the model answered them. */
function draftsFromExample(): Array<Record<string, unknown>> {
  const script = loadFakeScript(join(REPO_ROOT, 'examples/generate/fake-llm.yaml'));
  const reply = script.rules?.[0]?.reply;
  const content = reply !== undefined && 'content' in reply ? reply.content : undefined;
  if (typeof content !== 'string') throw new Error('examples/generate/fake-llm.yaml: the first rule has no content');
  const parsed = JSON.parse(content) as { scenarios: Array<Record<string, unknown>> };
  return parsed.scenarios;
}
