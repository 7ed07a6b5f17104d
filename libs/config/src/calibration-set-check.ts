import { regexes } from 'zod';
import {
  CALIBRATION_AXIS,
  CALIBRATION_LANGUAGE,
  CALIBRATION_SCHEMA_VERSION,
  CALIBRATION_SOURCE,
  RATING_META_KEYS,
  type CalibrationItem,
  type CalibrationMessage,
  type CalibrationRating,
  type CalibrationSet,
} from './calibration-schema.js';

/*
 * Validating a calibration set of 1,000 items with zod took about a tenth of `parley calibrate
 * report` (the catch-all rating schema and one object per message and rating, built cold). This
 * check accepts only a set `CalibrationSetSchema` accepts, and builds the same value (keys in the
 * schema's order, the catch-all axis keys after them in the file's order, defaults filled in). On
 * anything it does not accept it answers undefined, and the caller validates with zod, which says
 * what is wrong and where. It may refuse more than the schema does, never less.
 */

/** The patterns `z.iso.date()` and `z.iso.datetime({ offset: true })` check. */
const ISO_DATE = regexes.date;
const ISO_DATETIME_WITH_OFFSET = regexes.datetime({ offset: true });

const ITEM_KEYS = new Set(['id', 'added', 'source', 'language', 'vertical', 'transcript', 'ratings']);
const SET_KEYS = new Set(['schema_version', 'rubric_version', 'owner', 'axes', 'items']);
const META_KEYS: ReadonlySet<string> = new Set(RATING_META_KEYS);

/** Thrown (one shared instance) to give up on the quick check. */
const REFUSED = Object.freeze({ refused: true });

function refuse(): never {
  throw REFUSED;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): void {
  for (const key in value) if (!allowed.has(key)) refuse();
}

function text(value: unknown, nonEmpty = false, pattern?: RegExp): string {
  if (typeof value !== 'string' || (nonEmpty && value === '') || (pattern !== undefined && !pattern.test(value))) refuse();
  return value;
}

function message(value: unknown): CalibrationMessage {
  if (!isRecord(value)) refuse();
  onlyKeys(value, MESSAGE_KEYS);
  const role = value.role;
  if (role !== 'user' && role !== 'assistant') refuse();
  return { role, content: text(value.content) };
}
const MESSAGE_KEYS = new Set(['role', 'content']);

function rating(value: unknown, axes: ReadonlySet<string>): CalibrationRating {
  if (!isRecord(value)) refuse();
  const checked: Record<string, unknown> = {
    reviewer: text(value.reviewer, true),
    rated_at: text(value.rated_at, false, ISO_DATETIME_WITH_OFFSET),
    rubric_version: text(value.rubric_version, true),
  };
  if ('note' in value) checked.note = text(value.note);
  for (const key in value) {
    if (META_KEYS.has(key)) continue;
    const score = value[key];
    if (!axes.has(key) || typeof score !== 'number' || !Number.isInteger(score) || score < 1 || score > 5) refuse();
    checked[key] = score;
  }
  return checked as CalibrationRating;
}

function item(value: unknown, axes: ReadonlySet<string>): CalibrationItem {
  if (!isRecord(value)) refuse();
  onlyKeys(value, ITEM_KEYS);
  const checked: Record<string, unknown> = {
    id: text(value.id, true),
    added: text(value.added, false, ISO_DATE),
    source: text(value.source, false, CALIBRATION_SOURCE),
    language: text(value.language, false, CALIBRATION_LANGUAGE),
  };
  if ('vertical' in value) checked.vertical = text(value.vertical);
  const transcript = value.transcript;
  if (!Array.isArray(transcript) || transcript.length === 0) refuse();
  checked.transcript = transcript.map(message);
  const ratings = 'ratings' in value ? value.ratings : [];
  if (!Array.isArray(ratings)) refuse();
  checked.ratings = ratings.map((entry) => rating(entry, axes));
  return checked as CalibrationItem;
}

/**
 * The calibration set in `value` (parsed YAML) as `CalibrationSetSchema` would give it, when the
 * quick check accepts it; undefined otherwise (validate with the schema then).
 */
export function quickCalibrationSet(value: unknown): CalibrationSet | undefined {
  try {
    if (!isRecord(value)) refuse();
    onlyKeys(value, SET_KEYS);
    if (value.schema_version !== CALIBRATION_SCHEMA_VERSION) refuse();
    const rubricVersion = text(value.rubric_version, true);
    const owner = text(value.owner, true);
    const axisList = value.axes;
    if (!Array.isArray(axisList) || axisList.length === 0) refuse();
    const axes = new Set<string>();
    for (const axis of axisList) {
      if (axes.has(text(axis, false, CALIBRATION_AXIS)) || META_KEYS.has(axis as string)) refuse();
      axes.add(axis as string);
    }
    const items = 'items' in value ? value.items : [];
    if (!Array.isArray(items)) refuse();
    const ids = new Set<string>();
    const checkedItems = items.map((entry) => {
      const checked = item(entry, axes);
      if (ids.has(checked.id)) refuse();
      ids.add(checked.id);
      return checked;
    });
    return { schema_version: CALIBRATION_SCHEMA_VERSION, rubric_version: rubricVersion, owner, axes: [...axisList] as string[], items: checkedItems };
  } catch (error) {
    if (error === REFUSED) return undefined;
    throw error;
  }
}
