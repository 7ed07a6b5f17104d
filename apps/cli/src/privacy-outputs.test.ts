import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { startFakeLlm, type FakeLlmServer } from '@parley/fake-llm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyExample } from './test-support/example-copy.js';
import { parleyAsync, type ParleyProcessResult } from './test-support/parley-process.js';

/** Every file under a folder with its bytes. */
function filesUnder(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  if (!existsSync(dir)) return files;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), readFileSync(join(entry.parentPath, entry.name)));
  }
  return files;
}

/** The files of `after` that are new or changed since `before`: what the commands wrote. */
function written(before: Map<string, Buffer>, after: Map<string, Buffer>): Map<string, Buffer> {
  return new Map([...after].filter(([path, bytes]) => !before.get(path)?.equals(bytes)));
}

/**
 * The text of a file as a reader sees it: the raw text, plus every string value of JSON and JSON
 * lines, plus XML and markdown entities decoded, so a quote that was escaped is still found.
 */
function readable(path: string, bytes: Buffer): string {
  const raw = bytes.toString('utf8');
  const parts = [raw, decodeEntities(raw)];
  const strings = (value: unknown): string[] =>
    typeof value === 'string' ? [value] : value !== null && typeof value === 'object' ? Object.values(value).flatMap(strings) : [];
  const jsonTexts = path.endsWith('.json') ? [raw] : path.endsWith('.jsonl') ? raw.split('\n').filter((line) => line.trim() !== '') : [];
  for (const text of jsonTexts) {
    try {
      parts.push(...strings(JSON.parse(text)));
    } catch {
      // not JSON after all: the raw text is searched
    }
  }
  return parts.join('\n');
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/<br>/g, '\n')
    .replace(/\\([|\\])/g, '$1');
}

/** Every run of five consecutive words of a text: a quote of any part of it is found, not only the whole. */
function fiveWordPhrases(text: string): string[] {
  const words = text.split(/\s+/).filter((word) => word !== '');
  if (words.length < 5) return [words.join(' ')];
  return words.slice(0, -4).map((_, index) => words.slice(index, index + 5).join(' '));
}

describe('metadata_only content reaches no output (the municipal GBV scenarios, through the binary)', () => {
  it('is in no report, event log, summary, JUnit file, export, console output or exported recording', async () => {
    const suite = copyExample('municipal');
    const work = mkdtempSync(join(tmpdir(), 'parley-privacy-'));
    const before = new Map([...filesUnder(suite), ...filesUnder(work)]);

    const scenarioFiles = readdirSync(join(suite, 'scenarios'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
    const privateTexts: string[] = [];
    for (const file of scenarioFiles) {
      const scenario = parse(readFileSync(file, 'utf8')) as { id: string; metadata_only?: boolean; user?: { opening?: string; script?: string[] } };
      if (!scenario.metadata_only) continue;
      privateTexts.push(...[scenario.user?.opening ?? '', ...(scenario.user?.script ?? [])].filter((text) => text !== ''));
      for (const line of readFileSync(join(suite, 'recordings', `${scenario.id}.jsonl`), 'utf8').trim().split('\n')) {
        const content = (JSON.parse(line) as { response: { content: string } }).response.content;
        if (content.trim() !== '') privateTexts.push(content);
      }
    }
    expect(privateTexts.length).toBeGreaterThanOrEqual(18); // six metadata_only scenarios, their user turns and the agent's replies

    const outputs: ParleyProcessResult[] = [];
    const run = await parleyAsync(['run', suite, '--out', 'out'], { cwd: work });
    expect([0, 1], run.stderr).toContain(run.status); // the example's own verdicts are not what this test is about
    outputs.push(run);
    const exported = await parleyAsync(['recordings', 'export', suite, '--out', 'exported'], { cwd: work });
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('(6 metadata_only: usage and latencies only)');
    outputs.push(exported);
    const runId = (JSON.parse(readFileSync(join(work, 'out', 'report.json'), 'utf8')) as { run_id: string }).run_id;
    outputs.push(await parleyAsync(['runs', 'show', runId], { cwd: work }), await parleyAsync(['runs', 'list'], { cwd: work }));

    const after = new Map([...filesUnder(suite), ...filesUnder(work)]);
    const outputsWritten = written(before, after);
    // The store keeps the transcript a reviewer may open explicitly (docs/privacy.md, "metadata_only scenarios"): it is the run's own record, not an output.
    const store = join(work, '.parley', 'parley.db');
    const searched = [...outputsWritten].filter(([path]) => !path.startsWith(store));
    expect(searched.map(([path]) => path.slice(work.length + 1)).filter((path) => !path.startsWith('/')).sort()).toEqual(
      expect.arrayContaining(['exported/gbv_support_en.jsonl', 'out/events.jsonl', 'out/junit.xml', 'out/report.json', 'out/summary.md']),
    );

    const phrases = [...new Set(privateTexts.flatMap(fiveWordPhrases))];
    // The search does find the content where it is (the suite's own cassette, JSON-escaped).
    const cassette = join(suite, 'recordings', 'gbv_support_en.jsonl');
    expect(phrases.filter((phrase) => readable(cassette, readFileSync(cassette)).includes(phrase)).length).toBeGreaterThan(10);
    const haystacks = [
      ...searched.map(([path, bytes]) => [path, readable(path, bytes)] as const),
      ...outputs.flatMap((output, index) => [[`stdout ${index}`, output.stdout] as const, [`stderr ${index}`, output.stderr] as const]),
    ];
    const found = haystacks.flatMap(([where, text]) => phrases.filter((phrase) => text.includes(phrase)).map((phrase) => `${where}: ${phrase}`));
    expect(found).toEqual([]);

    // The statuses and costs of the GBV scenarios are kept.
    const report = JSON.parse(readFileSync(join(work, 'out', 'report.json'), 'utf8')) as {
      results: Array<{ scenario_id: string; status: string; metadata_only: boolean; transcript?: unknown; cost: { calls: number } }>;
    };
    // The five GBV scenarios, and the sign-in where a person discloses abuse.
    const withheld = report.results.filter((result) => result.metadata_only);
    expect(withheld.map((result) => result.scenario_id)).toEqual([
      'auth_gbv_disclosure_en',
      'gbv_case_extraction_af',
      'gbv_immediate_danger_zu',
      'gbv_sexual_assault_en',
      'gbv_shelter_zu',
      'gbv_support_en',
    ]);
    expect(withheld.every((result) => result.transcript === undefined && result.cost.calls > 0)).toBe(true);
  });
});

/*
 * Fake credentials, recognisable anywhere: provider keys, an agent's bearer token, and a backup key
 * that a provider's 401 message echoes back (as OpenAI's "Incorrect API key provided: …" does).
 */
const KEYS = {
  OPENAI_API_KEY: 'sk-test-PRIVACY-OPENAI-7f3a9c21',
  ANTHROPIC_API_KEY: 'sk-ant-test-PRIVACY-ANTHROPIC-4b8d',
  DESK_TOKEN: 'desk-token-PRIVACY-5e6f7a8b9c',
  ZURI_BACKUP_KEY: 'zuri-backup-PRIVACY-0a1b2c3d',
};

const SECRET_SUITE: Record<string, string> = {
  'parley.yaml': `suite: secrets_check
agents:
  booking:
    kind: openai
    model: gpt-4.1-mini
    system_prompt: prompts/booking.md
  concierge:
    kind: anthropic
    model: claude-sonnet-4-6
    max_tokens: 512
  backup:
    kind: openai
    model: gpt-4.1-nano
    api_key_env: ZURI_BACKUP_KEY
  desk:
    kind: http
    url: http://127.0.0.1:{{DESK_PORT}}/chat
    headers:
      Authorization: "Bearer \${DESK_TOKEN}"
`,
  'prompts/booking.md': 'You are Ratiba, the booking assistant of Zuri Spa.\n',
  'scenarios/openai_booking.yaml': 'id: openai_booking\nagent: booking\nuser:\n  opening: "Habari, nataka massage"\nexpect:\n  - { metric: content_signals, required: ["Karibu"] }\n',
  'scenarios/anthropic_concierge.yaml': 'id: anthropic_concierge\nagent: concierge\nuser:\n  opening: "Do you sell gift cards?"\nexpect:\n  - { metric: content_signals, required: ["never said"] }\n',
  'scenarios/backup_refused.yaml': 'id: backup_refused\nagent: backup\nuser:\n  opening: "Hello?"\n',
  'scenarios/desk_service.yaml': 'id: desk_service\nagent: desk\nuser:\n  opening: "Is the front desk open?"\n',
};

const FAKE_SCRIPT = `rules:
  - when: { api: openai, model: gpt-4.1-mini }
    reply: { content: "Karibu! Massage ya saa ngapi?" }
  - when: { api: anthropic }
    reply: { content: "Yes, gift cards from KES 2,000." }
  - when: { api: openai, model: gpt-4.1-nano }
    fault: { kind: status, status: 401, message: "Incorrect API key provided: ${KEYS.ZURI_BACKUP_KEY}. You can find your API key at https://platform.openai.com." }
`;

describe('credentials reach no file and no output (record, replay, export, history, through the binary)', () => {
  let fakeLlm: FakeLlmServer;
  let desk: Server;
  const deskHeaders: IncomingHttpHeaders[] = [];

  beforeAll(async () => {
    const scriptDir = mkdtempSync(join(tmpdir(), 'parley-secrets-script-'));
    writeFileSync(join(scriptDir, 'fake-llm.yaml'), FAKE_SCRIPT);
    fakeLlm = await startFakeLlm({ script: join(scriptDir, 'fake-llm.yaml') });
    desk = createServer((request, response) => {
      deskHeaders.push(request.headers);
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ reply: 'Yes, the desk is open until 19:00.' }));
      });
    });
    await new Promise<void>((resolve) => desk.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    await fakeLlm?.close();
    await new Promise((resolve) => desk?.close(resolve));
  });

  it('finds none of the fake keys, the bearer token or the echoed key in anything written or printed', async () => {
    const suite = mkdtempSync(join(tmpdir(), 'parley-secrets-suite-'));
    const deskPort = String((desk.address() as AddressInfo).port);
    for (const [path, text] of Object.entries(SECRET_SUITE)) {
      mkdirSync(dirname(join(suite, path)), { recursive: true });
      writeFileSync(join(suite, path), text.replace('{{DESK_PORT}}', deskPort));
    }
    const work = mkdtempSync(join(tmpdir(), 'parley-secrets-'));
    const env = { ...KEYS, OPENAI_BASE_URL: fakeLlm.openaiBaseUrl, ANTHROPIC_BASE_URL: fakeLlm.anthropicBaseUrl };

    const outputs: ParleyProcessResult[] = [];
    const record = await parleyAsync(['run', suite, '--mode', 'record', '--out', 'recorded'], { cwd: work, env });
    outputs.push(record);
    expect(record.status, record.stderr).toBe(1); // backup_refused errors: the provider refused its key
    const recorded = JSON.parse(readFileSync(join(work, 'recorded', 'report.json'), 'utf8')) as { run_id: string; results: Array<{ scenario_id: string; status: string }> };
    expect(Object.fromEntries(recorded.results.map((result) => [result.scenario_id, result.status]))).toEqual({
      anthropic_concierge: 'fail',
      backup_refused: 'error',
      desk_service: 'pass',
      openai_booking: 'pass',
    });
    // The credentials were really used: the desk got its bearer token, the fake LLM its keys.
    expect(deskHeaders.map((headers) => headers.authorization)).toEqual([`Bearer ${KEYS.DESK_TOKEN}`]);
    expect(fakeLlm.requests.length).toBeGreaterThanOrEqual(3);

    outputs.push(await parleyAsync(['run', suite, '--scenario', 'openai_*', '--scenario', 'anthropic_*', '--scenario', 'desk_*', '--out', 'replayed'], { cwd: work, env }));
    expect(outputs.at(-1)?.status, outputs.at(-1)?.stderr).toBe(1);
    outputs.push(await parleyAsync(['recordings', 'export', suite, '--out', 'exported'], { cwd: work, env }));
    expect(outputs.at(-1)?.status, outputs.at(-1)?.stderr).toBe(0);
    outputs.push(await parleyAsync(['runs', 'list'], { cwd: work, env }), await parleyAsync(['runs', 'show', recorded.run_id], { cwd: work, env }));
    expect(outputs.at(-1)?.stdout).toContain('backup_refused');

    const files = new Map([...filesUnder(work), ...filesUnder(join(suite, 'recordings'))]);
    expect([...files.keys()].some((path) => path.endsWith('parley.db'))).toBe(true);
    expect([...files.keys()].filter((path) => path.endsWith('.jsonl') && path.includes('/recordings/')).length).toBe(3);
    const secrets = [...Object.values(KEYS), `Bearer ${KEYS.DESK_TOKEN}`];
    const found: string[] = [];
    for (const secret of secrets) {
      for (const [path, bytes] of files) if (bytes.includes(secret)) found.push(`${path}: ${secret}`);
      for (const [index, output] of outputs.entries()) if (`${output.stdout}${output.stderr}`.includes(secret)) found.push(`output ${index}: ${secret}`);
    }
    expect(found).toEqual([]);
    expect(statSync(join(work, '.parley', 'parley.db')).size).toBeGreaterThan(0);
    // The refusal is still explained, with the key masked.
    expect(readFileSync(join(work, 'recorded', 'report.json'), 'utf8')).toContain('Incorrect API key provided: <secret>');
  });
});
