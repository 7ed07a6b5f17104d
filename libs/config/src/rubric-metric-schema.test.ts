import { describe, expect, it } from 'vitest';
import { parseConfigText } from './config-file.js';
import { RubricMetricSchema } from './rubric-metric-schema.js';

/** Every field of docs/file-formats.md's custom rubric metric, as a metric file. */
const EXAMPLE_METRIC = `name: booking_slot_consistency
version: 1.0.0
scale: { min: 1, max: 5 }
language: sw
rubric: |
  Score 5 when the slot the agent books is one the availability tool returned;
  1 when it books a slot that was never offered.
applies_to: conversation
criteria:
  - { id: offered_slot, text: The booked slot was offered by check_availability, level: required }
  - { id: confirms_price, text: The price is stated before booking, level: recommended }
`;

function messages(text: string): string[] {
  return parseConfigText(text, 'metrics/m.yaml', RubricMetricSchema).issues.map((issue) => `${issue.line}:${issue.column} ${issue.message}`);
}

describe('RubricMetricSchema', () => {
  it('accepts a metric with every documented field', () => {
    const parsed = parseConfigText(EXAMPLE_METRIC, 'm.yaml', RubricMetricSchema);
    expect(parsed.issues).toEqual([]);
    expect(parsed.data).toMatchObject({ scale: { min: 1, max: 5 }, applies_to: 'conversation' });
    expect(parsed.data?.criteria.map((criterion) => criterion.level)).toEqual(['required', 'recommended']);
  });

  it('defaults criteria to none and accepts a 0-100 scale', () => {
    const parsed = parseConfigText(
      'name: tone\nversion: 2.1.0-beta.1\nscale: { min: 0, max: 100 }\nrubric: Be kind.\napplies_to: each_assistant_message\n',
      'm.yaml',
      RubricMetricSchema,
    );
    expect(parsed.issues).toEqual([]);
    expect(parsed.data?.criteria).toEqual([]);
  });

  it('explains the one scale form', () => {
    expect(messages(EXAMPLE_METRIC.replace('scale: { min: 1, max: 5 }', 'scale: 1-5'))).toEqual([
      '3:8 "scale" is invalid: write the scale as a mapping such as { min: 1, max: 5 } (got "1-5")',
    ]);
    expect(messages(EXAMPLE_METRIC.replace('max: 5', 'max: 1'))).toEqual(["3:23 the scale's max must be greater than its min"]);
  });

  it('requires a semantic version and a known applies_to', () => {
    expect(messages(EXAMPLE_METRIC.replace('version: 1.0.0', 'version: "1.0"'))).toEqual([
      '2:10 "version" is invalid: use a semantic version such as 1.0.0 (got "1.0")',
    ]);
    expect(messages(EXAMPLE_METRIC.replace('applies_to: conversation', 'applies_to: turn'))).toEqual([
      '8:13 "applies_to" must be one of conversation, each_assistant_message, got string "turn"',
    ]);
  });

  it('checks a fluency metric judges its own language', () => {
    const fluency = EXAMPLE_METRIC.replace('name: booking_slot_consistency', 'name: fluency_en');
    expect(messages(fluency)).toEqual(['4:11 a metric named fluency_en judges language "en", not "sw"']);
  });
});
