import { describe, expect, it } from 'vitest';
import { rubricAxisLine } from './rubric-axis-line.js';

const rubric = `# Rubric

Rate each axis.

## intent_comprehension: did it understand?

- **5** yes

## intent_comprehension_extra: not this one

## response_naturalness: does it read well?
`;

describe('rubricAxisLine', () => {
  it('finds the heading of an axis, not one of a longer name', () => {
    expect(rubricAxisLine(rubric, 'intent_comprehension')).toBe(4);
    expect(rubricAxisLine(rubric, 'response_naturalness')).toBe(10);
  });

  it('is 0 when the rubric has no section for the axis', () => {
    expect(rubricAxisLine(rubric, 'cultural_appropriateness')).toBe(0);
  });
});
