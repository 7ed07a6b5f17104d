import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { parseConfigText } from './config-file.js';
import { ScenarioSchema } from './scenario-schema.js';
import { SuiteSchema } from './suite-schema.js';
import { describeValue, labelOf } from './zod-issues.js';

/** Issues of a scenario text as `line:column message` strings, in order. */
function scenarioIssues(text: string): string[] {
  return parseConfigText(text, 's.yaml', ScenarioSchema).issues.map((issue) => `${issue.line}:${issue.column} ${issue.message}`);
}

describe('describeZodIssues', () => {
  it('reports a missing key at the mapping it is missing from', () => {
    expect(scenarioIssues('id: a\nuser:\n  opening: hi\n')).toEqual(['1:1 missing required key "agent"']);
    expect(scenarioIssues('id: a\nagent: b\nuser:\n  simulate:\n    persona: p\n')).toEqual(['5:5 missing required key "goal"']);
  });

  it('reports a wrong type with what was written', () => {
    expect(scenarioIssues('id: a\nagent: b\nexpect:\n  - metric: m\n    threshold: high\n')).toEqual([
      '5:16 "threshold" must be a number, got string "high"',
    ]);
    expect(scenarioIssues('id: a\nagent: b\ntags: [ok, 3]\n')).toEqual(['3:12 "tags[1]" must be a string, got number 3']);
    expect(scenarioIssues('id: a\nagent: b\nuser: [hi]\n')).toEqual(['3:7 "user" must be a mapping, got a list']);
  });

  it('lists the allowed values of an enum', () => {
    expect(scenarioIssues('id: a\nagent: b\ngate: sometimes\n')).toEqual(['3:7 "gate" must be one of blocking, advisory, got string "sometimes"']);
  });

  it('reports an unknown key at the key, with a suggestion when one is close', () => {
    expect(scenarioIssues('id: a\nagent: b\ntitel: x\n')).toEqual(['3:1 unknown key "titel" (did you mean "title"?)']);
    expect(scenarioIssues('id: a\nagent: b\nexpect:\n  - metric: m\n    thresholding: { mode: relative, max_dorp: 0.1 }\n')).toEqual([
      '5:37 unknown key "max_dorp" (did you mean "max_drop"?)',
    ]);
  });

  it('lists the allowed keys when no key is close', () => {
    expect(scenarioIssues('id: a\nagent: b\nuser:\n  zzz: 1\n')).toEqual(['4:3 unknown key "zzz"; allowed keys: opening, script, simulate']);
  });

  it('follows a discriminated union into the option the data selects', () => {
    const suite = (agent: string): string[] =>
      parseConfigText(`suite: s\nagents:\n  svc:\n${agent}`, 'parley.yaml', SuiteSchema).issues.map(
        (issue) => `${issue.line}:${issue.column} ${issue.message}`,
      );
    expect(suite('    kind: http\n    urll: http://x\n')).toEqual([
      '4:5 missing required key "url"',
      '5:5 unknown key "urll" (did you mean "url"?)',
    ]);
    expect(suite('    kind: grpc\n')).toEqual([
      '4:11 "kind" must be one of openai, openai-responses, anthropic, openai-compatible, http, command, module, got string "grpc"',
    ]);
    expect(suite('    url: http://x\n')).toEqual(['4:5 missing required key "kind"']);
  });

  it('picks the closest option of a plain union', () => {
    expect(scenarioIssues('id: a\nagent: b\ntools:\n  book: { retuns: 1 }\n')).toEqual([
      '4:9 missing required key "returns"',
      '4:11 unknown key "retuns" (did you mean "returns"?)',
    ]);
  });

  it('shows a schema author\'s own message', () => {
    expect(scenarioIssues('id: Spa Booking\nagent: b\n')).toEqual([
      '1:5 "id" is invalid: scenario ids use lowercase letters, digits, _ and - (got "Spa Booking")',
    ]);
  });

  it('describes bounds in words', () => {
    expect(scenarioIssues('id: a\nagent: b\nuser:\n  simulate: { persona: p, goal: g, max_turns: 0 }\n')).toEqual([
      '4:47 "max_turns" must be at least 1, got number 0',
    ]);
    expect(scenarioIssues('id: a\nagent: ""\n')).toEqual(['2:8 "agent" must not be empty']);
  });

  it('reports an invalid record key at the key', () => {
    const issues = parseConfigText('suite: s\nagents:\n  Bad Name:\n    kind: http\n    url: u\n', 'parley.yaml', SuiteSchema).issues;
    expect(issues).toEqual([
      { file: 'parley.yaml', line: 3, column: 3, message: 'key "Bad Name" is invalid: keys here must match /^[A-Za-z0-9_-]+$/', severity: 'error' },
    ]);
  });

  it('reports an empty file as such', () => {
    expect(scenarioIssues('# nothing yet\n')).toEqual(['1:1 the file is empty']);
  });

  it('reports a value of none of a union\'s types', () => {
    const schema = z.strictObject({ value: z.union([z.string(), z.number()]) });
    const issues = parseConfigText('value: [1]\n', 'x.yaml', schema).issues;
    expect(issues.map((issue) => issue.message)).toEqual(['"value" must be a string or a number, got a list']);
  });
});

describe('labelOf and describeValue', () => {
  it('names the last key with its indexes', () => {
    expect(labelOf([])).toBe('the file');
    expect(labelOf(['expect', 2, 'threshold'])).toBe('"threshold"');
    expect(labelOf(['user', 'script', 0])).toBe('"script[0]"');
    expect(labelOf([0, 1])).toBe('"[0][1]"');
  });

  it('describes values briefly', () => {
    expect(describeValue('x'.repeat(50))).toBe(`string "${'x'.repeat(40)}…"`);
    expect(describeValue(null)).toBe('an empty value');
    expect(describeValue({})).toBe('a mapping');
    expect(describeValue(true)).toBe('boolean true');
  });
});

describe('validate', () => {
  it("checks a process's first 64 files with zod's plain checker, then lets zod compile its fast one, with the same results", async () => {
    vi.resetModules();
    const { validate } = await import('./zod-issues.js');
    const schema = z.strictObject({ id: z.string(), turns: z.array(z.strictObject({ user: z.string() })).min(1) });
    const contexts: unknown[] = [];
    const safeParse = schema.safeParse.bind(schema);
    const spied = Object.assign(Object.create(schema) as typeof schema, {
      safeParse: (data: unknown, context?: { jitless?: boolean }) => {
        contexts.push(context?.jitless);
        return safeParse(data, context);
      },
    });
    const inputs = [{ id: 'a', turns: [{ user: 'hi' }] }, { id: 'b', turns: [] }, { id: 'c', turns: [{ user: 1 }], extra: true }];
    const plain = inputs.map((input) => validate(spied, input));
    for (let index = plain.length; index < 64; index++) validate(spied, inputs[0]);
    const compiled = inputs.map((input) => validate(spied, input));
    expect(contexts.slice(0, 64).every((jitless) => jitless === true)).toBe(true);
    expect(contexts.slice(64)).toEqual([false, false, false]);
    const summary = (result: ReturnType<typeof validate>) => (result.success ? result.data : result.error.issues);
    expect(compiled.map(summary)).toEqual(plain.map(summary));
    expect(plain.map((result) => result.success)).toEqual([true, false, false]);
  });
});
