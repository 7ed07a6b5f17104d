import { describe, expect, it } from 'vitest';
import { buildReport } from './build-report.js';
import { renderJunit } from './junit.js';
import { findAll, readXml, type XmlElement } from './test-support/read-xml.js';
import { SECRET_PHRASE, runInfo, sampleResults } from './test-support/sample-run.js';

function testCase(root: XmlElement, name: string): XmlElement {
  const found = findAll(root, 'testcase').find((element) => element.attributes['name'] === name);
  if (found === undefined) throw new Error(`no testcase ${name}`);
  return found;
}

function property(element: XmlElement, name: string): string | undefined {
  const properties = element.children.find((child) => child.name === 'properties');
  return properties?.children.find((child) => child.attributes['name'] === name)?.attributes['value'];
}

describe('renderJunit', () => {
  const report = buildReport(runInfo, sampleResults());
  const xml = renderJunit(report);
  const root = readXml(xml);

  it('writes one testsuite named after the suite, its time the sum of its testcases’ (the run’s wall time a property)', () => {
    const suites = findAll(root, 'testsuite');
    expect(suites).toHaveLength(1);
    const sum = findAll(root, 'testcase').reduce((total, element) => total + Math.round(Number(element.attributes['time']) * 1000), 0);
    expect(suites[0]?.attributes).toMatchObject({ name: 'ratiba_booking', time: (sum / 1000).toFixed(3), tests: '9', timestamp: '2026-01-01T00:00:00' });
    expect(root.attributes['time']).toBe((sum / 1000).toFixed(3));
    expect(suites[0] && property(suites[0], 'wall_time_seconds')).toBe('12.345');
    for (const element of [...findAll(root, 'testcase'), ...suites]) expect(element.attributes['time']).toMatch(/^\d+\.\d{3}$/);
    expect(suites[0] && property(suites[0], 'run_id')).toBe('run-20260101-abcd1234');
  });

  it('writes one testcase per scenario, in report order, with classname and latency time', () => {
    const cases = findAll(root, 'testcase');
    expect(cases.map((element) => element.attributes['name'])).toEqual(report.results.map((result) => result.scenario_id));
    expect(testCase(root, 'spa_happy').attributes).toMatchObject({ classname: 'parley.ratiba_booking.booking', time: '0.350' });
  });

  it('gives a testcase the scenario file it came from, when the report knows it', () => {
    const withFiles = readXml(renderJunit(buildReport(runInfo, sampleResults(), { files: new Map([['spa_happy', 'examples/booking/scenarios/spa_happy.yaml']]) })));
    expect(testCase(withFiles, 'spa_happy').attributes['file']).toBe('examples/booking/scenarios/spa_happy.yaml');
    expect(testCase(withFiles, 'provider_down').attributes['file']).toBeUndefined();
  });

  it('marks blocking fail as failure, error as error, skipped as skipped', () => {
    expect(findAll(root, 'failure')).toHaveLength(2);
    expect(findAll(root, 'error')).toHaveLength(2);
    expect(findAll(root, 'skipped')).toHaveLength(1);
    expect(findAll(testCase(root, 'budget_stop'), 'skipped')).toHaveLength(1);
    expect(findAll(testCase(root, 'spa_happy'), 'failure')).toHaveLength(0);
  });

  it('escapes reasons in attributes and lists each failed metric in the body', () => {
    const failure = findAll(testCase(root, 'forbidden_word'), 'failure')[0];
    expect(failure?.attributes['message']).toBe('content_signals: forbidden "reservation" found in assistant message 3 <&"> | pipe');
    expect(failure?.text).toContain('content_signals@1.0.0 failed (score 0.00): forbidden "reservation" found in assistant message 3 <&"> | pipe');
    expect(failure?.text).toContain('conversation_judge@1.0.0 failed (score 0.50, threshold 0.70): too curt\nand cold');
    expect(failure?.text).not.toContain('tool_correctness');
  });

  it('gives errors their message, kind and details, with markup-like text escaped intact', () => {
    const error = findAll(testCase(root, 'provider_down'), 'error')[0];
    expect(error?.attributes).toMatchObject({ message: 'openai: 503 after 3 retries', type: 'provider' });
    expect(error?.text).toBe('attempt 1: 503\nattempt 2: 503\nattempt 3: 503 ]]> ]]>');
  });

  it('does not fail the build for a failing advisory scenario', () => {
    const advisory = testCase(root, 'smoke_advisory');
    expect(findAll(advisory, 'failure')).toHaveLength(0);
    expect(property(advisory, 'gate')).toBe('advisory');
    expect(findAll(advisory, 'system-out')[0]?.text).toContain('FAIL (advisory): conversation_judge: rambling');
  });

  it('turns blocking warn and flaky into failures under strict', () => {
    const strictRoot = readXml(renderJunit(buildReport({ ...runInfo, strict: true }, sampleResults())));
    expect(findAll(testCase(strictRoot, 'flaky_greeting'), 'failure')[0]?.attributes).toMatchObject({ type: 'flaky' });
    expect(findAll(testCase(strictRoot, 'warn_missing_baseline'), 'failure')).toHaveLength(1);
    expect(findAll(testCase(strictRoot, 'smoke_advisory'), 'failure')).toHaveLength(0);
  });

  it('keeps metadata_only content out of the XML', () => {
    expect(xml).not.toContain(SECRET_PHRASE);
    expect(findAll(testCase(root, 'gbv_disclosure'), 'failure')).toHaveLength(1);
  });

  it('is the same string every time', () => {
    expect(renderJunit(report)).toBe(xml);
  });
});

describe('escapeXml', () => {
  it('escapes markup and replaces characters XML 1.0 cannot carry', async () => {
    const { escapeXml } = await import('./xml-text.js');
    expect(escapeXml(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;');
    expect(escapeXml('bell\u0007 tab\t ok')).toBe('bell\uFFFD tab\t ok');
    expect(escapeXml('emoji 👍 stays')).toBe('emoji 👍 stays');
  });
});
