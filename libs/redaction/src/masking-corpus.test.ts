import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { floorRedactor } from './floor-redactor.js';
import { joinPieces } from './text-pieces.js';
import { KEPT, LANGUAGES, MASKED, measure, readCorpus, scoreTable } from './test-support/masking-corpus.js';

/**
 * The floor per entity in every language, set from the measurement (docs/privacy.md has the
 * table): names are found by the words around them, so a name with no cue at all ("Kevin said"
 * has one, "the ID of Thabo" has none) can be missed; numbers and addresses have a shape and must
 * all be masked.
 */
const FLOOR: Record<(typeof MASKED)[number], { recall: number; precision: number }> = {
  name: { recall: 0.9, precision: 0.9 },
  phone: { recall: 1, precision: 0.95 },
  email: { recall: 1, precision: 0.95 },
  id: { recall: 1, precision: 0.95 },
};

const DOC = new URL('../../../docs/privacy.md', import.meta.url);
const TABLE_START = '<!-- masking-corpus-table:start -->';
const TABLE_END = '<!-- masking-corpus-table:end -->';

const redactor = floorRedactor();
const scores = measure(redactor);
const table = scoreTable(scores);

describe('the floor redactor on the labelled multilingual corpus (libs/redaction/corpus)', () => {
  it('prints recall and precision per language and entity', () => {
    console.log(`Masking corpus (npx vitest run libs/redaction/src/masking-corpus.test.ts):\n${table}`);
    for (const { code } of LANGUAGES) expect(readCorpus(code).length).toBeGreaterThanOrEqual(30);
  });

  it('measures what the redactor really writes: the explained pieces join to redactor.text', () => {
    for (const { code } of LANGUAGES) {
      for (const sentence of readCorpus(code)) expect(joinPieces(redactor.explain(sentence.text)), `${code}.txt:${sentence.line}`).toBe(redactor.text(sentence.text));
    }
  });

  it.each(LANGUAGES.flatMap(({ code, name }) => MASKED.map((entity) => [name, entity, code] as const)))('%s %s: recall and precision hold the floor', (_, entity, code) => {
    const score = scores.get(code)!.get(entity)!;
    expect(score.labelled, 'every language has labelled spans of every entity').toBeGreaterThan(0);
    const recall = score.hit / score.labelled;
    const precision = score.masks === 0 ? 1 : score.correctMasks / score.masks;
    const misses = score.misses.join('\n');
    expect(recall, misses).toBeGreaterThanOrEqual(FLOOR[entity].recall);
    expect(precision, misses).toBeGreaterThanOrEqual(FLOOR[entity].precision);
  });

  it.each(LANGUAGES.flatMap(({ code, name }) => KEPT.map((entity) => [name, entity, code] as const)))('%s %s: every one is kept', (_, entity, code) => {
    const score = scores.get(code)!.get(entity)!;
    expect(score.labelled).toBeGreaterThan(0);
    expect(score.misses).toEqual([]);
  });

  it('docs/privacy.md shows the measured table', () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(TABLE_START);
    const end = doc.indexOf(TABLE_END);
    expect(start, `docs/privacy.md has ${TABLE_START}`).toBeGreaterThanOrEqual(0);
    expect(doc.slice(start + TABLE_START.length, end).trim()).toBe(table);
  });
});
