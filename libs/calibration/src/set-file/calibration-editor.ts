import { ConfigError } from '@parley/core';
import { CalibrationRatingSchema, type CalibrationItem, type CalibrationRating, type CalibrationSet } from '@parley/config';
import { isMap, isScalar, isSeq, YAMLSeq, type Document, type YAMLMap } from 'yaml';
import { RATING_LABELS } from '../statistics/rating-labels.js';

/** A rating to save: who, when, under which rubric, and 1–5 per axis (some axes may be left out). */
export interface RatingInput {
  reviewer: string;
  /** ISO 8601 with offset, e.g. `2026-11-02T09:14:00Z`. */
  rated_at: string;
  /** The rubric the reviewer saw; the set's `rubric_version` when left out. */
  rubric_version?: string;
  scores: Readonly<Record<string, number>>;
  note?: string;
}

/** How the text is written back: long messages stay on one line, never folded. */
const WRITE_OPTIONS = { lineWidth: 0 } as const;

/**
 * Edits one calibration set through the `yaml` Document API, so that everything the edit does not
 * touch (reviewers' comments, key order, quoting) is written back as it was read. The parsed set
 * is kept in step with the document for decisions that depend on earlier edits (ids, duplicates).
 */
export class CalibrationSetEditor {
  private edited = false;

  constructor(
    private readonly document: Document,
    private readonly current: CalibrationSet,
    readonly file: string,
  ) {}

  /** The set as it stands after the edits so far. */
  get set(): CalibrationSet {
    return this.current;
  }

  get changed(): boolean {
    return this.edited;
  }

  /** Appends an item (its messages and ratings written one per line, like the example in docs/file-formats.md). */
  addItem(item: CalibrationItem): void {
    if (this.current.items.some((existing) => existing.id === item.id)) {
      throw new ConfigError({ file: this.file, message: `the set already has an item "${item.id}"` });
    }
    const node = this.document.createNode(withoutUndefined(item)) as YAMLMap;
    for (const key of ['transcript', 'ratings']) {
      const list = node.get(key);
      if (!isSeq(list)) continue;
      for (const entry of list.items) {
        if (!isMap(entry)) continue;
        entry.flow = true;
        // Messages are quoted, as in the documented example: a text can hold anything, and quotes show where it ends.
        const content = entry.get('content', true);
        if (isScalar(content)) content.type = 'QUOTE_DOUBLE';
      }
    }
    this.itemsNode().items.push(node);
    this.current.items.push(item);
    this.edited = true;
  }

  /**
   * Saves a reviewer's rating of an item: replaces that reviewer's earlier rating of it in place,
   * or appends. Other reviewers' ratings are never touched, which is what makes concurrent saves
   * of two reviewers merge. A score off the 1–5 scale or on an axis the set does not have is a
   * ConfigError and nothing is saved.
   */
  putRating(itemId: string, input: RatingInput): 'added' | 'replaced' {
    const { rating, written } = this.checkedRating(itemId, input);
    const item = this.item(itemId);
    const itemNode = this.itemNode(itemId);
    const node = this.document.createNode(written) as YAMLMap;
    node.flow = true;
    // Versions are strings; quoted, "1.10" can never be read back as the number 1.1. The time is
    // quoted too: YAML allows it plain in a flow map, but Parley's fast loader then hands the
    // whole file to the full parser, which is many times slower on a large set.
    for (const key of ['rubric_version', 'rated_at']) {
      const scalar = node.get(key, true);
      if (isScalar(scalar)) scalar.type = 'QUOTE_DOUBLE';
    }
    let ratings = itemNode.get('ratings');
    if (!isSeq(ratings) || (ratings.flow && ratings.items.length === 0)) {
      ratings = new YAMLSeq();
      itemNode.set('ratings', ratings);
    }
    const list = ratings as YAMLSeq;
    const position = item.ratings.findIndex((existing) => existing.reviewer === rating.reviewer);
    this.edited = true;
    if (position >= 0) {
      list.items[position] = node;
      item.ratings[position] = rating;
      return 'replaced';
    }
    list.items.push(node);
    item.ratings.push(rating);
    return 'added';
  }

  /** Removes a reviewer's rating of an item (an undo); false when there was none. */
  removeRating(itemId: string, reviewer: string): boolean {
    const item = this.item(itemId);
    const position = item.ratings.findIndex((existing) => existing.reviewer === reviewer);
    if (position < 0) return false;
    const ratings = this.itemNode(itemId).get('ratings');
    if (isSeq(ratings)) ratings.items.splice(position, 1);
    item.ratings.splice(position, 1);
    this.edited = true;
    return true;
  }

  text(): string {
    return this.document.toString(WRITE_OPTIONS);
  }

  private item(itemId: string): CalibrationItem {
    const item = this.current.items.find((candidate) => candidate.id === itemId);
    if (!item) throw new ConfigError({ file: this.file, message: `no item "${itemId}" in the calibration set` });
    return item;
  }

  private itemsNode(): YAMLSeq {
    const items = this.document.get('items');
    if (isSeq(items) && !(items.flow && items.items.length === 0)) return items;
    const fresh = new YAMLSeq();
    this.document.set('items', fresh);
    return fresh;
  }

  private itemNode(itemId: string): YAMLMap {
    const node = this.itemsNode().items.find((entry): entry is YAMLMap => isMap(entry) && String(entry.get('id')) === itemId);
    if (!node) throw new ConfigError({ file: this.file, message: `no item "${itemId}" in the calibration set` });
    return node;
  }

  /**
   * The rating, validated, and as it is written: meta keys first, then the axes in the set's order,
   * then the note (the schema's own output puts the note before the axes).
   */
  private checkedRating(itemId: string, input: RatingInput): { rating: CalibrationRating; written: Record<string, string | number> } {
    const problem = (message: string): ConfigError =>
      new ConfigError({ file: this.file, message: `rating of ${itemId} by ${input.reviewer || '(no reviewer)'}: ${message}` });
    if (input.reviewer.trim() === '') throw problem('a rating needs a reviewer');
    if (Number.isNaN(Date.parse(input.rated_at))) throw problem(`rated_at "${input.rated_at}" is not a date and time`);
    const axes = this.current.axes;
    for (const [axis, score] of Object.entries(input.scores)) {
      if (!axes.includes(axis)) throw problem(`"${axis}" is not an axis of this set (axes: ${axes.join(', ')})`);
      if (!Number.isInteger(score) || !RATING_LABELS.includes(score)) throw problem(`${axis} must be a whole number from 1 to 5, got ${score}`);
    }
    const written: Record<string, string | number> = {
      reviewer: input.reviewer,
      rated_at: input.rated_at,
      rubric_version: input.rubric_version ?? this.current.rubric_version,
    };
    for (const axis of axes) if (input.scores[axis] !== undefined) written[axis] = input.scores[axis];
    if (input.note !== undefined) written.note = input.note;
    const parsed = CalibrationRatingSchema.safeParse(written);
    if (!parsed.success) throw problem(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'rating'}: ${issue.message}`).join('; '));
    return { rating: parsed.data, written };
  }
}

function withoutUndefined<Value extends object>(value: Value): Value {
  return JSON.parse(JSON.stringify(value)) as Value;
}
