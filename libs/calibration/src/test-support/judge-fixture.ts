import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Rule } from '@parley/fake-llm';
import { loadRubric, type CalibrationRubric } from '../judge/rubric-file.js';

const RUBRIC_TEXT = `---
version: 1.0.0
---
# Rubric
Rate 1 (worst) to 5 (best) on each axis.
`;

/** A rubric file in a fresh folder. */
export function rubricFixture(text = RUBRIC_TEXT): CalibrationRubric {
  const dir = mkdtempSync(join(tmpdir(), 'parley-rubric-'));
  const file = join(dir, 'rubric.md');
  writeFileSync(file, text);
  return loadRubric(file);
}

/** A model's answer as the fake LLM sends it (a JSON object). */
export function answer(intent: number, naturalness: number, cultural: number, reason = 'ok'): Record<string, unknown> {
  return { intent_comprehension: intent, response_naturalness: naturalness, cultural_appropriateness: cultural, reason };
}

/** A rule answering `model` for the item of setWithItems whose user message says "number N". */
export function ruleFor(model: string, index: number, answering: Pick<Rule, 'reply' | 'replies' | 'fault'>): Rule {
  return { name: `${model}-${index}`, when: { model, any_message: `number ${index}.` }, ...answering };
}
