import { useRef, useState } from 'react';

import {
  currentItem,
  lastSaved,
  missingAxes,
  ratingToSave,
  recordSave,
  recordSkip,
  recordUndo,
  removeRating,
  rubricAxisLine,
  saveRating,
  type RatingSession,
} from '@parley/calibration';
import type { Clock } from '@parley/core';
import { keystrokes, type Keystroke } from './rate-keys.js';
import { useKeys } from '../components/keyboard.js';

/**
 * What the screen shows besides the item: rating, typing a note or a skip reason, reading the
 * rubric, or asking whether to leave scores that are not saved yet.
 */
export type RateMode = 'rate' | 'note' | 'skip' | 'rubric' | 'leave';

export interface RateState {
  session: RatingSession;
  /** Index of the focused axis. */
  focus: number;
  /** The scores given to the item shown, not saved yet. */
  scores: Readonly<Record<string, number>>;
  note: string;
  /** First transcript line shown. */
  scroll: number;
  mode: RateMode;
  /** The text being typed in the note or skip input. */
  draft: string;
  /** First rubric line shown. */
  rubricScroll: number;
  message?: { text: string; error: boolean };
  /** In `leave` mode: what the reviewer asked for, done on `y`: back (Esc) or quit (q). */
  leaving?: 'back' | 'quit';
}

/** Line counts of what scrolls, from the current layout. */
export interface RateLayout {
  /** Lines of the transcript of the item `state` shows. */
  transcriptLines(state: RateState): number;
  transcriptRows: number;
  rubricLines: number;
  rubricRows: number;
  /** The rubric line where the section of an axis starts (as laid out). */
  rubricLineOf(sourceLine: number): number;
}

export interface RateSessionOptions {
  setFile: string;
  rubricText: string;
  clock: Clock;
  /** Esc (when nothing unsaved is in the way): back to the previous screen, or out of the TUI. */
  leave(): void;
  /** q (when nothing unsaved is in the way): out of the TUI. */
  quit(): void;
}

/**
 * The reviewer's session: keys in, state out. Keys are handled one after the other, each waiting
 * for the save or undo the one before it started, so a rating is on disk before the next key acts
 * and keys typed during a save are not lost.
 */
export function useRateSession(start: RatingSession, layout: RateLayout, options: RateSessionOptions): RateState {
  const [initial] = useState(() => freshItem({ session: start, focus: 0, scores: {}, note: '', scroll: 0, mode: 'rate', draft: '', rubricScroll: 0 }));
  // The state lives in a ref so that each queued key sees what the keys before it did.
  const state = useRef<RateState>(initial);
  const [, setVersion] = useState(0);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const layoutRef = useRef(layout);
  layoutRef.current = layout;
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const set = (next: RateState): void => {
    state.current = next;
    setVersion((version) => version + 1);
  };

  const handle = async (stroke: Keystroke): Promise<void> => {
    const current = state.current;
    const next = await step(current, stroke, layoutRef.current, optionsRef.current);
    if (next !== current) set(next);
  };

  useKeys((input, key) => {
    for (const stroke of keystrokes(input, key)) {
      queue.current = queue.current.then(() => handle(stroke)).catch((error: unknown) => set({ ...state.current, message: { text: describe(error), error: true } }));
    }
  });
  return state.current;
}

async function step(state: RateState, stroke: Keystroke, layout: RateLayout, options: RateSessionOptions): Promise<RateState> {
  switch (state.mode) {
    case 'note':
    case 'skip':
      return typing(state, stroke);
    case 'rubric':
      return reading(state, stroke, layout, options);
    case 'leave':
      return confirmingLeave(state, stroke, options);
    case 'rate':
      return rating(state, stroke, layout, options);
  }
}

async function rating(state: RateState, stroke: Keystroke, layout: RateLayout, options: RateSessionOptions): Promise<RateState> {
  const { session } = state;
  const item = currentItem(session);
  const axes = session.axes;
  if ('text' in stroke) {
    const { text } = stroke;
    if (text === 'q') return leave(state, 'quit', options);
    if (text === 'u') return undo(state, options);
    if (!item) return state;
    const axis = axes[state.focus];
    if (/^[1-5]$/.test(text) && axis !== undefined) {
      return { ...state, scores: { ...state.scores, [axis]: Number(text) }, focus: Math.min(state.focus + 1, axes.length - 1), message: undefined };
    }
    if (text === 's') return { ...state, mode: 'skip', draft: '', message: undefined };
    if (text === 'n') return { ...state, mode: 'note', draft: state.note, message: undefined };
    if (text === 'r') {
      const axisLine = layout.rubricLineOf(rubricAxisLine(options.rubricText, axes[state.focus] ?? ''));
      return { ...state, mode: 'rubric', rubricScroll: clamp(axisLine, 0, layout.rubricLines - layout.rubricRows) };
    }
    return state;
  }
  if (stroke.name === 'escape') return leave(state, 'back', options);
  if (!item) return state;
  const maxScroll = layout.transcriptLines(state) - layout.transcriptRows;
  switch (stroke.name) {
    case 'tab':
    case 'right':
      return { ...state, focus: (state.focus + 1) % axes.length };
    case 'shiftTab':
    case 'left':
      return { ...state, focus: (state.focus + axes.length - 1) % axes.length };
    case 'up':
      return { ...state, scroll: clamp(state.scroll - 1, 0, maxScroll) };
    case 'down':
      return { ...state, scroll: clamp(state.scroll + 1, 0, maxScroll) };
    case 'pageUp':
      return { ...state, scroll: clamp(state.scroll - layout.transcriptRows, 0, maxScroll) };
    case 'pageDown':
      return { ...state, scroll: clamp(state.scroll + layout.transcriptRows, 0, maxScroll) };
    case 'home':
      return { ...state, scroll: 0 };
    case 'end':
      return { ...state, scroll: clamp(maxScroll, 0, maxScroll) };
    case 'return':
      return save(state, options);
    default:
      return state;
  }
}

async function save(state: RateState, options: RateSessionOptions): Promise<RateState> {
  const { session } = state;
  const item = currentItem(session);
  if (!item) return state;
  const missing = missingAxes(session, state.scores);
  if (missing.length > 0) {
    return {
      ...state,
      focus: session.axes.indexOf(missing[0]!),
      message: { text: `not saved: rate ${missing.join(', ')} first`, error: true },
    };
  }
  const given = state.note.trim() === '' ? { scores: state.scores } : { scores: state.scores, note: state.note.trim() };
  await saveRating(options.setFile, item.id, ratingToSave(session, given, options.clock.now()));
  const next = freshItem({ ...state, session: recordSave(session, item.id, given) });
  return { ...next, message: { text: `saved ${item.id}`, error: false } };
}

async function undo(state: RateState, options: RateSessionOptions): Promise<RateState> {
  const last = lastSaved(state.session);
  if (!last) return { ...state, message: { text: 'nothing to undo: no rating saved in this session', error: true } };
  await removeRating(options.setFile, last.id, state.session.reviewer);
  const undone = recordUndo(state.session);
  if (!undone) return state;
  return {
    ...state,
    session: undone.session,
    scores: undone.restored.scores,
    note: undone.restored.note ?? '',
    focus: 0,
    scroll: 0,
    mode: 'rate',
    message: { text: `took back the rating of ${last.id}: change it and press Enter`, error: false },
  };
}

function typing(state: RateState, stroke: Keystroke): RateState {
  if ('text' in stroke) return { ...state, draft: state.draft + stroke.text };
  switch (stroke.name) {
    case 'backspace':
      return { ...state, draft: Array.from(state.draft).slice(0, -1).join('') };
    case 'escape':
      return { ...state, mode: 'rate', draft: '', message: undefined };
    case 'return': {
      if (state.mode === 'note') {
        const note = state.draft.trim();
        return { ...state, mode: 'rate', note, draft: '', message: { text: note === '' ? 'note removed' : 'note kept: it is saved with the rating', error: false } };
      }
      const item = currentItem(state.session);
      if (!item) return { ...state, mode: 'rate', draft: '' };
      const reason = state.draft.trim();
      const next = freshItem({ ...state, mode: 'rate', draft: '', session: recordSkip(state.session, item.id, reason) });
      return { ...next, message: { text: `skipped ${item.id}${reason ? ` (${reason})` : ''}`, error: false } };
    }
    default:
      return state;
  }
}

function reading(state: RateState, stroke: Keystroke, layout: RateLayout, options: RateSessionOptions): RateState {
  const max = layout.rubricLines - layout.rubricRows;
  if ('text' in stroke) {
    if (stroke.text === 'r') return { ...state, mode: 'rate' };
    return stroke.text === 'q' ? leave({ ...state, mode: 'rate' }, 'quit', options) : state;
  }
  switch (stroke.name) {
    case 'escape':
      return { ...state, mode: 'rate' };
    case 'up':
      return { ...state, rubricScroll: clamp(state.rubricScroll - 1, 0, max) };
    case 'down':
      return { ...state, rubricScroll: clamp(state.rubricScroll + 1, 0, max) };
    case 'pageUp':
      return { ...state, rubricScroll: clamp(state.rubricScroll - layout.rubricRows, 0, max) };
    case 'pageDown':
      return { ...state, rubricScroll: clamp(state.rubricScroll + layout.rubricRows, 0, max) };
    case 'home':
      return { ...state, rubricScroll: 0 };
    case 'end':
      return { ...state, rubricScroll: clamp(max, 0, max) };
    default:
      return state;
  }
}

/**
 * Esc or q: leaves at once when nothing would be lost, else asks first (scores or a note given to
 * the item shown and not saved are dropped by leaving).
 */
function leave(state: RateState, how: 'back' | 'quit', options: RateSessionOptions): RateState {
  if (hasUnsavedWork(state)) return { ...state, mode: 'leave', leaving: how, message: undefined };
  if (how === 'quit') options.quit();
  else options.leave();
  return state;
}

function confirmingLeave(state: RateState, stroke: Keystroke, options: RateSessionOptions): RateState {
  if ('text' in stroke && stroke.text.toLowerCase() === 'y') {
    if (state.leaving === 'quit') options.quit();
    else options.leave();
    return { ...state, mode: 'rate' };
  }
  if (('text' in stroke && stroke.text.toLowerCase() === 'n') || ('name' in stroke && stroke.name === 'escape')) {
    return { ...state, mode: 'rate', message: { text: 'kept rating: Enter saves the scores', error: false } };
  }
  return state;
}

/** Scores or a note on the item shown that differ from what is saved for it (by this reviewer). */
export function hasUnsavedWork(state: RateState): boolean {
  const item = currentItem(state.session);
  if (!item) return false;
  const saved = item.own?.scores ?? {};
  const keys = new Set([...Object.keys(saved), ...Object.keys(state.scores)]);
  for (const key of keys) if (saved[key] !== state.scores[key]) return true;
  return state.note.trim() !== (item.own?.note ?? '').trim();
}

/** The draft of a newly shown item: its own earlier scores if any (never another reviewer's). */
function freshItem(state: RateState): RateState {
  const own = currentItem(state.session)?.own;
  return { ...state, scores: own?.scores ?? {}, note: own?.note ?? '', focus: 0, scroll: 0 };
}

function clamp(value: number, min: number, max: number): number {
  return Math.max(min, Math.min(value, Math.max(min, max)));
}

function describe(error: unknown): string {
  return `not saved: ${error instanceof Error ? error.message : String(error)}`;
}
