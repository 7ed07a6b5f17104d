import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Redactor } from '../redactor.js';

/** The corpus folder (libs/redaction/corpus) and its languages, in the order the table shows them. */
export const CORPUS_DIR = new URL('../../corpus/', import.meta.url).pathname;
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'sw', name: 'Swahili' },
  { code: 'zu', name: 'isiZulu' },
  { code: 'xh', name: 'isiXhosa' },
  { code: 'af', name: 'Afrikaans' },
  { code: 'st', name: 'Sesotho' },
] as const;

/** Entities the redactor must mask, and those it must keep. */
export const MASKED = ['name', 'phone', 'email', 'id'] as const;
export const KEPT = ['place', 'amount', 'receipt'] as const;
type Entity = (typeof MASKED)[number] | (typeof KEPT)[number];

export interface LabelledSpan {
  entity: Entity;
  start: number;
  end: number;
}

export interface CorpusSentence {
  file: string;
  line: number;
  text: string;
  spans: LabelledSpan[];
}

const LABEL = /\[\[([a-z]+):([^\]]+)\]\]/g;

/** The sentences of one language's file, with their labelled spans. */
export function readCorpus(language: string): CorpusSentence[] {
  const file = join(CORPUS_DIR, `${language}.txt`);
  const sentences: CorpusSentence[] = [];
  for (const [index, raw] of readFileSync(file, 'utf8').split('\n').entries()) {
    if (raw.trim() === '' || raw.startsWith('#')) continue;
    let text = '';
    const spans: LabelledSpan[] = [];
    let last = 0;
    for (const match of raw.matchAll(LABEL)) {
      const entity = match[1] as Entity;
      if (![...MASKED, ...KEPT].includes(entity)) throw new Error(`${file}:${index + 1}: unknown entity ${entity}`);
      text += raw.slice(last, match.index);
      spans.push({ entity, start: text.length, end: text.length + match[2]!.length });
      text += match[2];
      last = match.index + match[0].length;
    }
    text += raw.slice(last);
    if (text.includes('[[') || text.includes(']]')) throw new Error(`${file}:${index + 1}: a label is not closed`);
    sentences.push({ file, line: index + 1, text, spans });
  }
  return sentences;
}

/** Which entity a masking rule's output stands for. */
function entityOfRule(rule: string | undefined): string {
  switch (rule) {
    case 'names':
    case 'name_cues':
      return 'name';
    case 'phone':
      return 'phone';
    case 'email':
      return 'email';
    case 'digit_run':
      return 'id';
    default:
      return rule ?? 'unknown';
  }
}

interface MaskedSpan {
  entity: string;
  start: number;
  end: number;
}

/** Where the redactor masked `text` (offsets in `text`), and which entity each mask stands for. */
export function maskedSpans(redactor: Redactor, text: string): MaskedSpan[] {
  const spans: MaskedSpan[] = [];
  let offset = 0;
  for (const piece of redactor.explain(text)) {
    const source = piece.fixed ? (piece.source ?? piece.text) : piece.text;
    if (piece.fixed && piece.text !== source) spans.push({ entity: entityOfRule(piece.rule), start: offset, end: offset + source.length });
    offset += source.length;
  }
  return spans;
}

export interface Score {
  labelled: number;
  /** Masked entities: labelled spans wholly masked. Kept entities: labelled spans left untouched. */
  hit: number;
  /** Masked entities: masks the redactor made for this entity, and how many of them hit a label of it. */
  masks: number;
  correctMasks: number;
  /** Sentences where a labelled span of this entity was missed, or a mask of it fell elsewhere. */
  misses: string[];
}

export type Scores = Map<string, Map<string, Score>>;

/** Recall and precision of `redactor` per language and entity over the whole corpus. */
export function measure(redactor: Redactor): Scores {
  const scores: Scores = new Map();
  for (const { code } of LANGUAGES) {
    const perEntity = new Map<string, Score>([...MASKED, ...KEPT].map((entity) => [entity, { labelled: 0, hit: 0, masks: 0, correctMasks: 0, misses: [] }]));
    for (const sentence of readCorpus(code)) {
      const masks = maskedSpans(redactor, sentence.text);
      for (const label of sentence.spans) {
        const score = perEntity.get(label.entity)!;
        score.labelled += 1;
        const where = `${code}.txt:${sentence.line}`;
        if ((MASKED as readonly string[]).includes(label.entity)) {
          if (whollyMasked(sentence.text, label, masks)) score.hit += 1;
          else score.misses.push(`${where} missed ${label.entity} "${sentence.text.slice(label.start, label.end)}"`);
        } else if (masks.some((mask) => overlaps(mask, label))) {
          score.misses.push(`${where} masked kept ${label.entity} "${sentence.text.slice(label.start, label.end)}"`);
        } else {
          score.hit += 1;
        }
      }
      for (const mask of masks) {
        const score = perEntity.get(mask.entity);
        if (!score) continue;
        score.masks += 1;
        if (sentence.spans.some((label) => label.entity === mask.entity && overlaps(mask, label))) score.correctMasks += 1;
        else score.misses.push(`${code}.txt:${sentence.line} masked "${sentence.text.slice(mask.start, mask.end)}" as ${mask.entity}`);
      }
    }
    scores.set(code, perEntity);
  }
  return scores;
}

/** Every letter and digit of the label is under a mask (a phone's kept digits are the rule's design, under its mask). */
function whollyMasked(text: string, label: LabelledSpan, masks: readonly MaskedSpan[]): boolean {
  for (let index = label.start; index < label.end; index += 1) {
    if (!/[\p{L}\p{N}]/u.test(text[index]!)) continue;
    if (!masks.some((mask) => mask.start <= index && index < mask.end)) return false;
  }
  return true;
}

function overlaps(left: { start: number; end: number }, right: { start: number; end: number }): boolean {
  return left.start < right.end && right.start < left.end;
}

export function ratio(numerator: number, denominator: number): string {
  return denominator === 0 ? '–' : (numerator / denominator).toFixed(2);
}

/** The Markdown table of docs/privacy.md: recall and precision of the masked entities, kept rate of the others. */
export function scoreTable(scores: Scores): string {
  const rows = ['| language | entity | labelled | recall | masks | precision |', '| --- | --- | ---: | ---: | ---: | ---: |'];
  for (const { code, name } of LANGUAGES) {
    for (const entity of MASKED) {
      const score = scores.get(code)!.get(entity)!;
      rows.push(`| ${name} | ${entity} | ${score.labelled} | ${ratio(score.hit, score.labelled)} | ${score.masks} | ${ratio(score.correctMasks, score.masks)} |`);
    }
  }
  rows.push('');
  rows.push('| language | places kept | amounts kept | receipts kept |', '| --- | ---: | ---: | ---: |');
  for (const { code, name } of LANGUAGES) {
    const cells = KEPT.map((entity) => {
      const score = scores.get(code)!.get(entity)!;
      return `${score.hit}/${score.labelled}`;
    });
    rows.push(`| ${name} | ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}
