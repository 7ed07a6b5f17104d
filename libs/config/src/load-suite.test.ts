import { join } from 'node:path';
import { ConfigError, formatIssue, sha256Hex } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { loadSuite, type LoadedSuite } from './load-suite.js';
import {
  METRIC_PARAMS,
  RUBRIC_METRIC_YAML,
  SUITE_YAML,
  TOOLS_JSON,
  scenarioYaml,
  validSuiteFiles,
  whereIs,
  writeFiles,
} from './test-support/suite-fixture.js';

/** Load a suite written from `files`; answer the suite or the thrown ConfigError. */
function load(files: Record<string, string>, filter?: (scenario: { id: string; tags: string[] }) => boolean) {
  const dir = writeFiles(files);
  try {
    return { dir, suite: loadSuite(dir, { metricParams: METRIC_PARAMS, ...(filter ? { filter } : {}) }), error: undefined };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { dir, suite: undefined, error };
  }
}

function loaded(files: Record<string, string>): { dir: string; suite: LoadedSuite } {
  const { dir, suite, error } = load(files);
  if (error) throw new Error(`unexpected ConfigError:\n${error.message}`);
  return { dir, suite: suite! };
}

/** The thrown issues as `relative/file:line:column: message`. */
function issuesOf(files: Record<string, string>): string[] {
  const { dir, error } = load(files);
  expect(error, 'loadSuite should have thrown a ConfigError').toBeInstanceOf(ConfigError);
  return error!.issues.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) }));
}

describe('loadSuite: a valid suite', () => {
  const { dir, suite } = loaded({
    ...validSuiteFiles(),
    'scenarios/zz_last.yaml': scenarioYaml('zz_last', 'gate: advisory\n'),
    'scenarios/nested/aa_first.yaml': scenarioYaml('aa_first'),
  });

  it('finds the suite, its scenarios (sorted by id) and absolute paths', () => {
    expect(suite.dir).toBe(dir);
    expect(suite.file).toBe(join(dir, 'parley.yaml'));
    expect(suite.config.suite).toBe('ratiba_booking');
    expect(suite.scenarios.map((scenario) => scenario.data.id)).toEqual(['aa_first', 'spa_happy', 'zz_last']);
    expect(suite.scenarios[0]!.file).toBe(join(dir, 'scenarios/nested/aa_first.yaml'));
    expect(suite.warnings).toEqual([]);
  });

  it('accepts the parley.yaml file itself as the suite path', () => {
    const again = loadSuite(join(dir, 'parley.yaml'), { metricParams: METRIC_PARAMS });
    expect(again.scenarios.map((scenario) => scenario.data.id)).toEqual(['aa_first', 'spa_happy', 'zz_last']);
  });

  it('loads prompt agents\' system prompts (CRLF made LF) and normalised tools', () => {
    expect(suite.agentPrompts).toEqual({
      booking: { file: join(dir, 'prompts/booking.md'), text: 'You are the booking assistant.\nBe brief.\n' },
    });
    expect(suite.agentTools).toEqual({
      booking: [
        { name: 'check_availability', description: 'Free slots', parameters: { type: 'object', properties: { day: { type: 'string' } } } },
        { name: 'create_booking', parameters: { type: 'object', properties: {} } },
      ],
    });
  });

  it('loads custom rubric metrics with a hash of their rubric content', () => {
    expect(suite.customMetrics).toHaveLength(1);
    const [metric] = suite.customMetrics;
    expect(metric!.file).toBe(join(dir, 'metrics/booking_slot_consistency.yaml'));
    expect(metric!.data.name).toBe('booking_slot_consistency');
    expect(metric!.rubricSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('defaults the gate to the scenario\'s, then the suite setting, then blocking', () => {
    expect(suite.scenarios.map((scenario) => scenario.gate)).toEqual(['blocking', 'blocking', 'advisory']);
    const advisorySuite = loaded({
      ...validSuiteFiles(),
      'parley.yaml': SUITE_YAML.replace('gate: blocking', 'gate: advisory'),
      'scenarios/own.yaml': scenarioYaml('own', 'gate: blocking\n'),
    }).suite;
    expect(advisorySuite.scenarios.map((scenario) => [scenario.data.id, scenario.gate])).toEqual([
      ['own', 'blocking'],
      ['spa_happy', 'advisory'],
    ]);
    const noSettings = loaded({ ...validSuiteFiles(), 'parley.yaml': SUITE_YAML.replace('settings:\n  gate: blocking\n', '') }).suite;
    expect(noSettings.scenarios[0]!.gate).toBe('blocking');
  });
});

describe('loadSuite: expectations', () => {
  it('merges suite defaults, then the agent\'s, then the scenario\'s own', () => {
    const { suite } = loaded(validSuiteFiles());
    expect(suite.scenarios[0]!.expectations).toEqual([
      { metric: 'content_signals', forbidden: ['as an AI language model'] },
      { metric: 'tool_correctness', expected: ['check_availability'] },
    ]);
  });

  it("adds a scenario's expectations to the defaults, also for a metric the defaults name", () => {
    const { suite } = loaded({
      ...validSuiteFiles(),
      'scenarios/spa_happy.yaml': scenarioYaml(
        'spa_happy',
        'expect:\n  - { metric: content_signals, required: [BK-1042] }\n  - { metric: booking_slot_consistency, threshold: 1.0 }\n',
      ),
    });
    expect(suite.scenarios[0]!.expectations).toEqual([
      { metric: 'content_signals', forbidden: ['as an AI language model'] },
      { metric: 'tool_correctness', expected: ['check_availability'] },
      { metric: 'content_signals', required: ['BK-1042'] },
      { metric: 'booking_slot_consistency', threshold: 1 },
    ]);
  });

  it('lets a scenario tune a built-in default with only common keys (no parameters of its own)', () => {
    const { suite } = loaded({
      ...validSuiteFiles(),
      'scenarios/spa_happy.yaml': scenarioYaml('spa_happy', 'expect:\n  - { metric: tool_correctness, threshold: 1, gate: advisory }\n'),
    });
    expect(suite.scenarios[0]!.expectations).toEqual([
      { metric: 'content_signals', forbidden: ['as an AI language model'] },
      { metric: 'tool_correctness', expected: ['check_availability'], threshold: 1, gate: 'advisory' },
    ]);
  });

  it('still checks the parameters of a metric no broader level expects', () => {
    const issues = issuesOf({
      ...validSuiteFiles(),
      'scenarios/spa_happy.yaml': scenarioYaml('spa_happy', 'expect:\n  - { metric: tool_correctness, threshold: 1 }\n').replace(
        'agent: booking',
        'agent: booking_service',
      ),
    });
    expect(issues).toEqual([expect.stringMatching(/^scenarios\/spa_happy\.yaml:\d+:\d+: .*expected/)]);
  });

  it('applies no agent level to a scenario of an agent without expectations', () => {
    const { suite } = loaded({ ...validSuiteFiles(), 'scenarios/spa_happy.yaml': scenarioYaml('spa_happy').replace('agent: booking', 'agent: booking_service') });
    expect(suite.scenarios[0]!.expectations.map((expectation) => expectation.metric)).toEqual(['content_signals']);
  });
});

describe('loadSuite: errors carry file:line:column', () => {
  it('reports every problem of every file at once, sorted by file and line', () => {
    const files = {
      ...validSuiteFiles(),
      'parley.yaml': SUITE_YAML.replace('prompts/booking.md', 'prompts/missing.md').replace(
        '{ metric: content_signals, forbidden',
        '{ metric: content_signal, forbidden',
      ),
      'tools/booking.json': '[\n  { "name": "check_availability", "parameters": "none" }\n]\n',
      'metrics/broken.yaml': 'name: broken\nversion: one\n',
      'scenarios/syntax.yaml': 'id: syntax\nagent: booking: x\n',
      'scenarios/duplicate_key.yaml': 'id: duplicate_key\nagent: booking\nagent: booking\n',
      'scenarios/wrong_stem.yaml': scenarioYaml('other_name'),
      'scenarios/a/twin.yaml': scenarioYaml('twin'),
      'scenarios/b/twin.yaml': scenarioYaml('twin'),
      'scenarios/agent.yaml': scenarioYaml('agent').replace('agent: booking', 'agent: bookng'),
      'scenarios/metric.yaml': scenarioYaml('metric', 'expect:\n  - metric: tool_corectness\n    expected: []\n'),
      'scenarios/params.yaml': scenarioYaml(
        'params',
        'expect:\n  - metric: content_signals\n    treshold: 0.5\n  - metric: tool_correctness\n    expected: [a]\n    mode: fuzzy\n',
      ),
      'scenarios/schema.yaml': scenarioYaml('schema', 'expect:\n  - metric: content_signals\n    threshold: high\n'),
    };
    const text = (path: keyof typeof files): string => files[path];
    expect(issuesOf(files)).toEqual([
      `metrics/broken.yaml:${whereIs(text('metrics/broken.yaml'), 'name')}: missing required key "scale"`,
      `metrics/broken.yaml:${whereIs(text('metrics/broken.yaml'), 'name')}: missing required key "rubric"`,
      `metrics/broken.yaml:${whereIs(text('metrics/broken.yaml'), 'name')}: missing required key "applies_to"`,
      `metrics/broken.yaml:${whereIs(text('metrics/broken.yaml'), 'one')}: "version" is invalid: use a semantic version such as 1.0.0 (got "one")`,
      `parley.yaml:${whereIs(text('parley.yaml'), 'prompts/missing.md')}: system prompt "prompts/missing.md": file not found`,
      `parley.yaml:${whereIs(text('parley.yaml'), 'content_signal,')}: unknown metric "content_signal" (did you mean "content_signals"?)`,
      `scenarios/a/twin.yaml:1:5: duplicate scenario id "twin": also used by scenarios/b/twin.yaml`,
      `scenarios/agent.yaml:2:8: unknown agent "bookng" (did you mean "booking"?)`,
      `scenarios/b/twin.yaml:1:5: duplicate scenario id "twin": also used by scenarios/a/twin.yaml`,
      `scenarios/duplicate_key.yaml:3:1: duplicate key "agent": keys must be unique`,
      `scenarios/metric.yaml:${whereIs(text('scenarios/metric.yaml'), 'tool_corectness')}: unknown metric "tool_corectness" (did you mean "tool_correctness"?)`,
      `scenarios/params.yaml:${whereIs(text('scenarios/params.yaml'), 'treshold')}: unknown key "treshold" (did you mean "threshold"?)`,
      `scenarios/params.yaml:${whereIs(text('scenarios/params.yaml'), 'fuzzy')}: "mode" must be one of default, ordered, exact, got string "fuzzy"`,
      `scenarios/schema.yaml:${whereIs(text('scenarios/schema.yaml'), 'high')}: "threshold" must be a number, got string "high"`,
      `scenarios/syntax.yaml:${whereIs(text('scenarios/syntax.yaml'), 'booking: x')}: invalid YAML: Nested mappings are not allowed in compact mappings`,
      `scenarios/wrong_stem.yaml:1:5: the scenario id "other_name" must equal the file name "wrong_stem"`,
      `tools/booking.json:${whereIs(text('tools/booking.json'), '"none"')}: "parameters" must be a mapping, got string "none"`,
    ]);
  });

  it('reports a missing tools file at its entry in parley.yaml', () => {
    const files = { ...validSuiteFiles(), 'tools/booking.json': undefined } as Record<string, string | undefined>;
    delete files['tools/booking.json'];
    expect(issuesOf(files as Record<string, string>)).toEqual([
      `parley.yaml:${whereIs(SUITE_YAML, 'tools/booking.json')}: tools file "tools/booking.json": file not found`,
    ]);
  });

  it('reports invalid JSON in a tools file at its line and column', () => {
    const tools = '[\n  { "name": "a", }\n]\n';
    const [issue, ...others] = issuesOf({ ...validSuiteFiles(), 'tools/booking.json': tools });
    expect(others).toEqual([]);
    // The reason's wording is the JavaScript engine's; the place is ours.
    expect(issue).toMatch(new RegExp(`^tools/booking\\.json:${whereIs(tools, '}')}: invalid JSON: \\S`));
  });

  it('lists the suite\'s agents when no agent name is close', () => {
    expect(issuesOf({ ...validSuiteFiles(), 'scenarios/spa_happy.yaml': scenarioYaml('spa_happy').replace('agent: booking', 'agent: support') })).toEqual([
      'scenarios/spa_happy.yaml:2:8: unknown agent "support"; the suite\'s agents are booking, booking_service',
    ]);
  });

  it('stops at an invalid parley.yaml, reporting only its issues', () => {
    expect(issuesOf({ ...validSuiteFiles(), 'parley.yaml': 'suite: s\nagents:\n  a: { kind: http }\n', 'scenarios/x.yaml': 'broken: [' })).toEqual([
      'parley.yaml:3:6: missing required key "url"',
    ]);
  });

  it('says when there is no suite', () => {
    const dir = writeFiles({ 'README.md': '' });
    expect(() => loadSuite(dir, { metricParams: METRIC_PARAMS })).toThrow(`${dir}: no parley.yaml in this folder`);
    expect(() => loadSuite(join(dir, 'nowhere'), { metricParams: METRIC_PARAMS })).toThrow('no such file or folder');
  });

  it('checks custom metric names against their file and the built-in metrics', () => {
    expect(
      issuesOf({
        ...validSuiteFiles(),
        'metrics/renamed.yaml': RUBRIC_METRIC_YAML.replace('booking_slot_consistency', 'something_else'),
        'metrics/fluency_sw.yaml': RUBRIC_METRIC_YAML.replace('booking_slot_consistency', 'fluency_sw'),
      }),
    ).toEqual([
      'metrics/fluency_sw.yaml:1:7: "fluency_sw" is a built-in metric: give your rubric its own name (e.g. fluency_sw_local) and write "replaces: fluency_sw"',
      'metrics/renamed.yaml:1:7: the metric name "something_else" must equal the file name "renamed"',
    ]);
  });

  it('refuses a scenario of a restricted vertical without redaction extras', () => {
    const files = {
      ...validSuiteFiles(),
      'parley.yaml': `${SUITE_YAML}redaction:\n  restricted_verticals: [dental, medical]\n  extras:\n    medical: { fields: [diagnosis] }\n`,
      'scenarios/dentist.yaml': scenarioYaml('dentist', 'vertical: dental\n'),
      'scenarios/clinic.yaml': scenarioYaml('clinic', 'vertical: medical\n'),
    };
    expect(issuesOf(files)).toEqual([
      `scenarios/dentist.yaml:${whereIs(files['scenarios/dentist.yaml'], 'dental')}: "dental" is a restricted vertical without redaction extras: add redaction.extras.dental to parley.yaml`,
    ]);
  });

  it('reports a missing identities file', () => {
    const text = `${SUITE_YAML}redaction:\n  identities: data/names.txt\n`;
    expect(issuesOf({ ...validSuiteFiles(), 'parley.yaml': text })).toEqual([
      `parley.yaml:${whereIs(text, 'data/names.txt')}: identities file "data/names.txt": file not found`,
    ]);
  });
});

describe('loadSuite: warnings', () => {
  it('warns about a judge judging its own model, a language no fluency metric judges, unknown mocked tools and no user turns', () => {
    const suiteText = `${SUITE_YAML}judge:\n  primary: { provider: openai, model: gpt-4.1-mini }\n`;
    const scenarioText = 'id: spa_happy\nagent: booking\nlanguage: xh\ntools:\n  check_availabilty: { returns: [] }\n';
    const { dir, suite } = loaded({ ...validSuiteFiles(), 'parley.yaml': suiteText, 'scenarios/spa_happy.yaml': scenarioText });
    expect(suite.warnings.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) }))).toEqual([
      `parley.yaml:${whereIs(suiteText, 'gpt-4.1-mini }')}: the judge model "gpt-4.1-mini" is also the model of agent "booking": a model judging its own output is biased`,
      'scenarios/spa_happy.yaml:1:1: the scenario has no user turns: give user.opening, user.script or user.simulate',
      'scenarios/spa_happy.yaml:3:11: no fluency metric judges language "xh": add metrics/fluency_xh.yaml (see the built-in fluency rubrics)',
      'scenarios/spa_happy.yaml:5:3: agent "booking" has no tool "check_availabilty" (did you mean "check_availability"?)',
    ]);
    expect(suite.warnings.every((issue) => issue.severity === 'warning')).toBe(true);
  });

  it('accepts a custom fluency metric for a language without a built-in one', () => {
    const { suite } = loaded({
      ...validSuiteFiles(),
      'metrics/fluency_xh.yaml': RUBRIC_METRIC_YAML.replace('booking_slot_consistency', 'fluency_xh'),
      'scenarios/spa_happy.yaml': scenarioYaml('spa_happy', 'language: xh\n'),
    });
    expect(suite.warnings).toEqual([]);
  });

  it('warns when no scenario file matches', () => {
    const files = validSuiteFiles();
    delete (files as Record<string, string | undefined>)['scenarios/spa_happy.yaml'];
    const { suite } = loaded(files);
    expect(suite.scenarios).toEqual([]);
    expect(suite.warnings.map((issue) => issue.message)).toEqual(['no scenario files match "scenarios/**/*.yaml"']);
  });
});

describe('loadSuite: filter', () => {
  it('loads only the chosen scenarios and ignores problems of the others', () => {
    const { suite, error } = load(
      { ...validSuiteFiles(), 'scenarios/other.yaml': scenarioYaml('other', 'tags: [smoke]\n'), 'scenarios/broken.yaml': 'id: broken\nagent: [' },
      (scenario) => scenario.tags.includes('smoke'),
    );
    expect(error).toBeUndefined();
    expect(suite!.scenarios.map((scenario) => scenario.data.id)).toEqual(['other']);
  });

  it('still reports problems of a chosen scenario', () => {
    const { error } = load({ ...validSuiteFiles(), 'scenarios/broken.yaml': 'id: broken\nagent: 3\n' }, (scenario) => scenario.id === 'broken');
    expect(error?.issues.map((issue) => issue.message)).toEqual(['"agent" must be a string, got number 3']);
  });
});

describe('loadSuite: one scenario file given as the suite', () => {
  /** Loads `path` (relative to the written suite) as the suite; answers the suite or the ConfigError's issues. */
  function loadFile(files: Record<string, string>, path: string, scenarioFile: boolean) {
    const dir = writeFiles(files);
    try {
      return { suite: loadSuite(join(dir, path), { metricParams: METRIC_PARAMS, scenarioFile }), issues: undefined };
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      return { suite: undefined, issues: error.issues.map((issue) => formatIssue({ ...issue, file: issue.file.slice(dir.length + 1) })) };
    }
  }
  const files = { ...validSuiteFiles(), 'scenarios/nested/other.yaml': scenarioYaml('other'), 'scenarios/broken.yaml': 'id: broken\nagent: [' };

  it('is that file alone in its suite (the nearest parley.yaml above), no other scenario file read', () => {
    const { suite, issues } = loadFile(files, 'scenarios/nested/other.yaml', true);
    expect(issues).toBeUndefined();
    expect(suite!.config.suite).toBe('ratiba_booking');
    expect(suite!.scenarios.map((scenario) => scenario.data.id)).toEqual(['other']);
    // Checked against the suite as in a whole load: an unknown agent is an error at its line.
    const unknownAgent = loadFile({ ...files, 'scenarios/nested/other.yaml': scenarioYaml('other').replace('agent: booking', 'agent: bookin') }, 'scenarios/nested/other.yaml', true);
    expect(unknownAgent.issues).toEqual([expect.stringMatching(/^scenarios\/nested\/other\.yaml:\d+:\d+: unknown agent "bookin"/)]);
  });

  it('must be one of the files the suite\'s scenarios glob matches', () => {
    const { issues } = loadFile({ ...files, 'drafts/draft.yaml': scenarioYaml('draft') }, 'drafts/draft.yaml', true);
    expect(issues).toEqual(['drafts/draft.yaml:1:1: not a scenario of the suite ../parley.yaml: its scenarios are the files "scenarios/**/*.yaml" matches']);
  });

  it('is one error naming its suite where a command takes only suites', () => {
    const { issues } = loadFile(files, 'scenarios/nested/other.yaml', false);
    expect(issues).toEqual(['scenarios/nested/other.yaml:1:1: a scenario file, not a suite (parley.yaml): its suite is ../../parley.yaml']);
  });

  it('a metric file given as the suite is one error naming its suite, not the keys a parley.yaml lacks', () => {
    const metric = 'name: politeness\nversion: 1.0.0\nrubric: |\n  Rate politeness.\n';
    const { issues } = loadFile({ ...files, 'metrics/politeness.yaml': metric }, 'metrics/politeness.yaml', true);
    expect(issues).toEqual(['metrics/politeness.yaml:1:1: a metric file, not a suite (parley.yaml): its suite is ../parley.yaml: validate the suite, which checks its metrics']);
    const lone = writeFiles({ 'politeness.yaml': metric });
    expect(() => loadSuite(join(lone, 'politeness.yaml'), { metricParams: METRIC_PARAMS, scenarioFile: true })).toThrow(/a metric file, not a suite \(parley\.yaml\): no parley\.yaml in its folder or above$/);
  });

  it('without a parley.yaml above, and any other file, is read as a suite file as before', () => {
    const lone = writeFiles({ 'other.yaml': scenarioYaml('other') });
    expect(() => loadSuite(join(lone, 'other.yaml'), { metricParams: METRIC_PARAMS, scenarioFile: true })).toThrow(/a scenario file, not a suite \(parley\.yaml\): no parley\.yaml in its folder or above/);
    const { issues } = loadFile({ ...files, 'other.yaml': 'name: x\n' }, 'other.yaml', true);
    expect(issues).toContain('other.yaml:1:1: missing required key "suite"');
  });
});

describe('loadSuite: files are read as data', () => {
  it('gives the same scenarios for CRLF and LF files', () => {
    const lf = loaded(validSuiteFiles()).suite;
    const crlf = loaded(Object.fromEntries(Object.entries(validSuiteFiles()).map(([path, text]) => [path, text.replaceAll('\n', '\r\n')]))).suite;
    expect(crlf.scenarios.map((scenario) => scenario.data)).toEqual(lf.scenarios.map((scenario) => scenario.data));
    expect(crlf.customMetrics[0]!.rubricSha256).toBe(lf.customMetrics[0]!.rubricSha256);
    expect(sha256Hex(TOOLS_JSON)).not.toBe(sha256Hex(TOOLS_JSON.replaceAll('\n', '\r\n')));
    expect(crlf.agentTools).toEqual(lf.agentTools);
  });
});
