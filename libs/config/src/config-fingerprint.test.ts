import { describe, expect, it } from 'vitest';
import { configFingerprint } from './config-fingerprint.js';
import { loadSuite } from './load-suite.js';
import { METRIC_PARAMS, METRIC_VERSIONS, RUBRIC_METRIC_YAML, scenarioYaml, validSuiteFiles, writeFiles } from './test-support/suite-fixture.js';

function fingerprintOf(files: Record<string, string>, versions: Record<string, string> = METRIC_VERSIONS): string {
  return configFingerprint(loadSuite(writeFiles(files), { metricParams: METRIC_PARAMS }), versions);
}

describe('configFingerprint', () => {
  const files: Record<string, string> = {
    ...validSuiteFiles(),
    'scenarios/spa_happy.yaml': scenarioYaml('spa_happy', 'language: sw\nexpect:\n  - { metric: booking_slot_consistency, threshold: 1.0 }\n'),
  };
  const reference = fingerprintOf(files);

  it('is a sha256 in the baseline format', () => {
    expect(reference).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is the same for the same suite in another folder', () => {
    expect(fingerprintOf(files)).toBe(reference);
  });

  it('is the same for CRLF files', () => {
    const crlf = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replaceAll('\n', '\r\n')]));
    expect(fingerprintOf(crlf)).toBe(reference);
  });

  it('ignores formatting that does not change the data', () => {
    const reformatted = {
      ...files,
      'scenarios/spa_happy.yaml': '# a comment\nid: spa_happy\nagent:   booking\nlanguage: "sw"\nuser: { opening: Habari }\nexpect: [{ threshold: 1, metric: booking_slot_consistency }]\n',
    };
    expect(fingerprintOf(reformatted)).toBe(reference);
  });

  it('changes when a scenario changes', () => {
    expect(fingerprintOf({ ...files, 'scenarios/spa_happy.yaml': files['scenarios/spa_happy.yaml']!.replace('Habari', 'Jambo') })).not.toBe(reference);
  });

  it('changes when parley.yaml changes', () => {
    expect(fingerprintOf({ ...files, 'parley.yaml': files['parley.yaml']!.replace('gpt-4.1-mini', 'gpt-4.1') })).not.toBe(reference);
  });

  it('changes when the version of a used metric changes, built-in or custom', () => {
    expect(fingerprintOf(files, { ...METRIC_VERSIONS, content_signals: '1.0.1' })).not.toBe(reference);
    expect(fingerprintOf(files, { ...METRIC_VERSIONS, fluency_sw: '2.0.0' })).not.toBe(reference);
    const bumped = { ...files, 'metrics/booking_slot_consistency.yaml': RUBRIC_METRIC_YAML.replace('version: 1.0.0', 'version: 1.1.0') };
    expect(fingerprintOf(bumped)).not.toBe(reference);
  });

  it('does not depend on --scenario / --tag: a selection has the fingerprint of the whole suite', () => {
    const two = {
      ...files,
      'scenarios/spa_cancel.yaml': scenarioYaml('spa_cancel', 'tags: [cancel]\nlanguage: en\nexpect:\n  - { metric: content_signals, required: ["cancelled"] }\n'),
    };
    const whole = fingerprintOf(two);
    const dir = writeFiles(two);
    const selected = (filter: (scenario: { id: string; tags: string[] }) => boolean) =>
      configFingerprint(loadSuite(dir, { metricParams: METRIC_PARAMS, filter }), METRIC_VERSIONS);
    expect(selected((scenario) => scenario.id === 'spa_happy')).toBe(whole);
    expect(selected((scenario) => scenario.tags.includes('cancel'))).toBe(whole);
    // …and a change to a scenario outside the selection still changes it.
    const changed = writeFiles({ ...two, 'scenarios/spa_cancel.yaml': two['scenarios/spa_cancel.yaml']!.replace('cancelled', 'canceled') });
    expect(configFingerprint(loadSuite(changed, { metricParams: METRIC_PARAMS, filter: (scenario) => scenario.id === 'spa_happy' }), METRIC_VERSIONS)).not.toBe(whole);
  });

  it('ignores versions of metrics no scenario uses', () => {
    expect(fingerprintOf(files, { ...METRIC_VERSIONS, conversation_judge: '9.9.9', fluency_en: '9.9.9' })).toBe(reference);
  });
});
