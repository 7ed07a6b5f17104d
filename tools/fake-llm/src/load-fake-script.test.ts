import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { loadFakeScript, parseFakeScript } from './load-fake-script.js';

function writeTemp(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fake-llm-script-')), name);
  writeFileSync(path, text);
  return path;
}

function configErrorOf(action: () => unknown): ConfigError {
  try {
    action();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadFakeScript', () => {
  it('reads a YAML script', () => {
    const path = writeTemp(
      'script.yaml',
      [
        'defaults: { latency_ms: 5 }',
        'rules:',
        '  - name: greet-sw',
        '    when: { api: openai, last_user: "/habari/i" }',
        '    reply:',
        '      content: "Karibu!"',
        '      tool_calls: [ { name: check_availability, args: { date: "2026-11-28" } } ]',
        'fallback: { content: "Samahani, sielewi." }',
      ].join('\n'),
    );
    expect(loadFakeScript(path)).toEqual({
      defaults: { latency_ms: 5 },
      rules: [
        {
          name: 'greet-sw',
          when: { api: 'openai', last_user: '/habari/i' },
          reply: { content: 'Karibu!', tool_calls: [{ name: 'check_availability', args: { date: '2026-11-28' } }] },
        },
      ],
      fallback: { content: 'Samahani, sielewi.' },
    });
  });

  it('reads a JSON script, tab-indented as editors write it', () => {
    const path = writeTemp('script.json', '{\n\t"rules": [\n\t\t{ "reply": { "content": "hi" }, "times": 2 }\n\t]\n}\n');
    expect(loadFakeScript(path)).toEqual({ rules: [{ reply: { content: 'hi' }, times: 2 }] });
  });

  it('points at an unknown key with file, line and column', () => {
    const path = writeTemp('typo.yaml', 'rules:\n  - when:\n      last_usr: hi\n    reply: { content: x }\n');
    const error = configErrorOf(() => loadFakeScript(path));
    expect(error.issues).toEqual([{ file: path, line: 3, column: 7, message: 'rules[0].when.last_usr: unknown key last_usr' }]);
    expect(error.message).toBe(`${path}:3:7: rules[0].when.last_usr: unknown key last_usr`);
  });

  it('points at a regex that does not compile', () => {
    const path = writeTemp('regex.yaml', 'rules:\n  - when: { system: "/(booking/" }\n    reply: { content: x }\n');
    const [issue] = configErrorOf(() => loadFakeScript(path)).issues;
    expect(issue).toMatchObject({ file: path, line: 2, column: 21 });
    expect(issue?.message).toMatch(/^rules\[0\]\.when\.system: invalid regular expression/);
  });

  it('reports a YAML syntax error with its position', () => {
    const path = writeTemp('broken.yaml', 'rules:\n  - reply: { content: "x"\n');
    const [issue] = configErrorOf(() => loadFakeScript(path)).issues;
    expect(issue?.file).toBe(path);
    expect(issue?.line).toBeGreaterThanOrEqual(2);
  });

  it('names a file it cannot read', () => {
    const path = join(tmpdir(), 'fake-llm-no-such-dir', 'missing.yaml');
    const error = configErrorOf(() => loadFakeScript(path));
    expect(error.message).toContain(path);
    expect(error.message).toContain('cannot read fake-llm script');
  });

  it('rejects rules that cannot answer or answer twice', () => {
    const path = writeTemp(
      'rules.yaml',
      ['rules:', '  - when: { api: openai }', '  - reply: { content: a }', '    replies: [ { content: b } ]', '  - fault: { kind: status }'].join('\n'),
    );
    const messages = configErrorOf(() => loadFakeScript(path)).issues.map((issue) => `${issue.line}: ${issue.message}`);
    expect(messages).toEqual([
      '2: rules[0]: a rule needs reply, replies or fault',
      '4: rules[1].replies: give either reply or replies, not both',
      '5: rules[2].fault.status: a fault of kind "status" needs a status, e.g. 429',
    ]);
  });
});

describe('parseFakeScript', () => {
  it('accepts an empty script and names the source of a bad one', () => {
    expect(parseFakeScript(undefined)).toEqual({});
    const error = configErrorOf(() => parseFakeScript({ rules: [{ times: 0, reply: {} }] }, 'PUT /_fake/script'));
    expect(error.issues[0]).toMatchObject({ file: 'PUT /_fake/script' });
    expect(error.issues[0]?.message).toMatch(/^rules\[0\]\.times:/);
  });

  it('requires reply or replies when faults are limited by fault.times', () => {
    const error = configErrorOf(() => parseFakeScript({ rules: [{ fault: { kind: 'hang', times: 1 } }] }));
    expect(error.issues[0]?.message).toMatch(/^rules\[0\]\.fault\.times: fault\.times needs reply or replies/);
  });
});
