import { describe, expect, it } from 'vitest';
import { rubricLines } from './rubric-lines.js';

const rubric = `# Rubric

Rate the **assistant's** side of the conversation on each axis
from 1 to 5.

## intent_comprehension: did it understand?

- **5** Understood every request, including changes of mind and
  follow-up questions (*Shikamoo* → *Marahaba*).
- **4** Understood the request.`;

describe('rubricLines', () => {
  it('re-flows paragraphs and list items to the width and drops emphasis markers', () => {
    const { lines } = rubricLines(rubric, 40);
    expect(lines.map((line) => line.text)).toEqual([
      'Rubric',
      '',
      "Rate the assistant's side of the",
      'conversation on each axis from 1 to 5.',
      '',
      'intent_comprehension: did it understand?',
      '',
      '- 5 Understood every request, including',
      '  changes of mind and follow-up',
      '  questions (Shikamoo → Marahaba).',
      '- 4 Understood the request.',
    ]);
    expect(lines.filter((line) => line.heading).map((line) => line.text)).toEqual(['Rubric', 'intent_comprehension: did it understand?']);
    for (const line of lines) expect(Array.from(line.text).length).toBeLessThanOrEqual(40);
  });

  it('tells where a line of the file is shown', () => {
    const { startOf } = rubricLines(rubric, 40);
    expect(startOf(5)).toBe(5);
    expect(startOf(7)).toBe(7);
    expect(startOf(8)).toBe(7);
  });
});
