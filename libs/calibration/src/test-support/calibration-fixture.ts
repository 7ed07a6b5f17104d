import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The documented example set (docs/file-formats.md), comments included, plus a reviewer's own comment. */
export const EXAMPLE_SET_TEXT = `schema_version: 1
rubric_version: "1.0.0"
owner: calibration-owner            # who runs the monthly session
axes: [intent_comprehension, response_naturalness, cultural_appropriateness]
items:
  # Picked by rev-a: a good Swahili opening.
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

/** A set of `count` unrated items (`cal-2026-11-001` …), for save loops. */
export function setWithItems(count: number): string {
  const items = Array.from({ length: count }, (_, index) => {
    const id = `cal-2026-11-${String(index + 1).padStart(3, '0')}`;
    return `  - id: ${id}
    added: 2026-11-02
    source: synthetic
    language: en
    transcript:
      - { role: user, content: "I would like a pedicure on Friday afternoon, number ${index}." }
      - { role: assistant, content: "Of course. We have 14:00 and 16:30 on Friday; which suits you?" }
    ratings: []
`;
  });
  return `schema_version: 1
rubric_version: "1.0.0"
owner: calibration-owner   # kept across saves
axes: [intent_comprehension, response_naturalness, cultural_appropriateness]
items:
${items.join('')}`;
}

/** A fresh folder holding `human_labelled.yaml` with `text`; returns the file's path. */
export function calibrationFileWith(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-calibration-'));
  const file = join(dir, 'human_labelled.yaml');
  writeFileSync(file, text);
  return file;
}

export function itemId(index: number): string {
  return `cal-2026-11-${String(index + 1).padStart(3, '0')}`;
}
