import { writeFileSync } from 'node:fs';
import { ConfigError, formatIssue } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { calibrationFileWith, EXAMPLE_SET_TEXT } from '../test-support/calibration-fixture.js';
import { loadCalibrationSet } from './calibration-set-file.js';

function problems(text: string): string[] {
  const file = calibrationFileWith(text);
  try {
    loadCalibrationSet(file);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((issue) => formatIssue({ ...issue, file: 'human_labelled.yaml' }));
    throw error;
  }
  return [];
}

describe('loadCalibrationSet', () => {
  it("loads the documented example set", () => {
    const set = loadCalibrationSet(calibrationFileWith(EXAMPLE_SET_TEXT));
    expect(set.items[0]?.ratings[0]).toMatchObject({ reviewer: 'rev-a', rubric_version: '1.0.0', response_naturalness: 5 });
  });

  it('points at a rating outside 1–5 with file:line:column', () => {
    expect(problems(EXAMPLE_SET_TEXT.replace('response_naturalness: 5', 'response_naturalness: 0'))).toEqual([
      'human_labelled.yaml:17:58: "response_naturalness" must be at least 1, got number 0',
    ]);
  });

  it('points at a rating on an axis the set does not have', () => {
    expect(problems(EXAMPLE_SET_TEXT.replace('intent_comprehension: 4,', 'politeness: 4,'))).toEqual([
      'human_labelled.yaml:17:23: "politeness" is not an axis of this set (axes: intent_comprehension, response_naturalness, cultural_appropriateness)',
    ]);
  });

  it('requires the rubric version of every rating', () => {
    expect(problems(EXAMPLE_SET_TEXT.replace('rubric_version: "1.0.0",\n', '\n'))).toEqual([
      expect.stringMatching(/^human_labelled\.yaml:16:9: .*rubric_version/),
    ]);
  });

  it('reports YAML syntax errors and a missing file as configuration errors', () => {
    expect(problems(`${EXAMPLE_SET_TEXT}  - { broken\n`)[0]).toMatch(/^human_labelled\.yaml:\d+:\d+: invalid YAML/);
    const file = calibrationFileWith(EXAMPLE_SET_TEXT);
    writeFileSync(file, '');
    expect(() => loadCalibrationSet(`${file}.missing`)).toThrow(/file not found/);
  });
});
