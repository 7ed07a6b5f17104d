import { CALIBRATION_SCHEMA_VERSION } from '@parley/config';

/** The three axes of a new set (docs/calibration.md, "Axes and scale"), in the order reviewers rate them. */
export const DEFAULT_AXES = ['intent_comprehension', 'response_naturalness', 'cultural_appropriateness'] as const;

/**
 * The text of an empty calibration set, for the first import into a folder without one. Written
 * as text (not from data) so that it starts with the comments a newcomer needs.
 */
export function newCalibrationSetText(options: { rubricVersion: string; owner: string }): string {
  return [
    '# The calibration set: masked conversations rated 1–5 by people on each axis.',
    '# `parley calibrate import` adds items, `parley tui rate` adds ratings, `parley calibrate report`',
    '# measures how well the judge agrees with them. Saves are atomic and keep these comments.',
    `schema_version: ${CALIBRATION_SCHEMA_VERSION}`,
    `rubric_version: ${JSON.stringify(options.rubricVersion)}`,
    `owner: ${JSON.stringify(options.owner)}`,
    `axes: [${DEFAULT_AXES.join(', ')}]`,
    'items: []',
    '',
  ].join('\n');
}
