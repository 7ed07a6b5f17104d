import { describe, expect, it } from 'vitest';
import { CalibrationSetSchema } from './calibration-schema.js';
import { parseConfigText } from './config-file.js';
import { whereIs } from './test-support/suite-fixture.js';

/** The calibration set example of docs/file-formats.md. */
const EXAMPLE_CALIBRATION = `schema_version: 1
rubric_version: "1.0.0"
owner: calibration-owner            # who runs the monthly session
axes: [intent_comprehension, response_naturalness, cultural_appropriateness]
items:
  - id: cal-2026-11-001
    added: 2026-11-02
    source: production               # production | scenario:<id> | synthetic
    language: sw
    vertical: spa
    transcript:                      # already masked (section 7)
      - { role: user, content: "Habari, nataka kuweka miadi ya massage." }
      - { role: assistant, content: "Karibu! Ungependa siku gani?" }
    ratings:
      - { reviewer: rev-a, rated_at: 2026-11-02T09:14:00Z, rubric_version: "1.0.0",
          intent_comprehension: 4, response_naturalness: 5, cultural_appropriateness: 4, note: "" }
`;

function messages(text: string): string[] {
  return parseConfigText(text, 'human_labelled.yaml', CalibrationSetSchema).issues.map(
    (issue) => `${issue.line}:${issue.column} ${issue.message}`,
  );
}

describe('CalibrationSetSchema', () => {
  it('accepts the documented example', () => {
    const parsed = parseConfigText(EXAMPLE_CALIBRATION, 'human_labelled.yaml', CalibrationSetSchema);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data?.items[0]?.ratings[0]).toMatchObject({ reviewer: 'rev-a', intent_comprehension: 4, note: '' });
  });

  it('rejects a rating of 6 at its place', () => {
    const text = EXAMPLE_CALIBRATION.replace('response_naturalness: 5', 'response_naturalness: 6');
    expect(messages(text)).toEqual([`${whereIs(text, '6, cultural')} "response_naturalness" must be at most 5, got number 6`]);
  });

  it('rejects ratings that are not whole numbers or name no axis', () => {
    const half = EXAMPLE_CALIBRATION.replace('intent_comprehension: 4,', 'intent_comprehension: 3.5,');
    expect(messages(half)).toEqual([`${whereIs(half, '3.5')} "intent_comprehension" must be a whole number, got number 3.5`]);
    const misspelt = EXAMPLE_CALIBRATION.replace('cultural_appropriateness: 4,', 'cultural_appropriatenes: 4,');
    expect(messages(misspelt)).toEqual([
      `${whereIs(misspelt, '4, note')} "cultural_appropriatenes" is not an axis of this set (axes: intent_comprehension, response_naturalness, cultural_appropriateness)`,
    ]);
  });

  it('rejects duplicate item ids and unknown sources', () => {
    const item = EXAMPLE_CALIBRATION.slice(EXAMPLE_CALIBRATION.indexOf('  - id:'));
    const twice = `${EXAMPLE_CALIBRATION}${item}`;
    expect(messages(twice)).toEqual([`${whereIs(twice, 'cal-2026-11-001', 2)} duplicate item id "cal-2026-11-001"`]);
    const prod = EXAMPLE_CALIBRATION.replace('source: production', 'source: prod');
    expect(messages(prod)).toEqual([
      `${whereIs(prod, 'prod ')} "source" is invalid: source is production, synthetic or scenario:<scenario id> (got "prod")`,
    ]);
  });

  it('takes a stored run case as source: a scenario, a variant, either against another agent', () => {
    for (const id of ['spa_booking', 'spa_booking[lang=zu,persona=rushed]', 'spa_booking@booking_v2', 'spa_booking[lang=zu]@booking_v2']) {
      expect(messages(EXAMPLE_CALIBRATION.replace('source: production', `source: "scenario:${id}"`)), id).toEqual([]);
    }
    expect(messages(EXAMPLE_CALIBRATION.replace('source: production', 'source: "scenario:spa[lang=zu"')).length).toBe(1);
  });
});
