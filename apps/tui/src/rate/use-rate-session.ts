import { useRef, useState } from 'react';

import {
  adoptRating,
  currentItem,
  knownRating,
  lastSaved,
  missingAxes,
  nextPosition,
  ratingToSave,
  recordSave,
  recordSkip,
  recordUndo,
  RatingConflict,
  removeRating,
  rubricAxisLine,
  saveRating,
  showItem,
  type OwnRating,
  type RatingSession,
} from '@parley/calibration';
import type { Clock } from '@parley/core';
import { keystrokes, type Keystroke } from './rate-keys.js';
import { useKeys } from '../components/keyboard.js';

/**
 * What the screen shows besides the item: rating, typing a note or a skip reason, reading the
 * rubric, asking whether to leave scores that are not saved yet, asking what to do about a rating
 * the same reviewer saved in another session meanwhile, or the list of items.
 */
type RateMode = 'rate' | 'note' | 'skip' | 'rubric' | 'leave' | 'conflict' | 'list';

/** What `y` does in `leave` mode: go back (Esc), quit (q), or show another item. */
type Leaving = 'back' | 'quit' | { show: number };

/** A save refused because the reviewer's rating in the file changed in another session. */
export interface RatingClash {
  itemId: string;
  /** What this session tried to save. */
  mine: OwnRating;
  /** The reviewer's rating in the file now (undefined: taken back there). */
  theirs?: OwnRating & { ratedAt: string };
}

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
  /** In `leave` mode: what the reviewer asked for, done on `y`. */
  leaving?: Leaving;
  /** In `conflict` mode: the two ratings. */
  clash?: RatingClash;
}

/** A change of the session's state, queued behind the keys before it (see `useRateSession`). */
type RateStep = (state: RateState) => RateState | Promise<RateState>;

export interface RateSession {
  state: RateState;
  /** Queues a change (the item list uses it to open an item or close itself). */
  run(step: RateStep): void;
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
  /**
   * Esc (when nothing unsaved is in the way): back to the previous screen (on the first screen the
   * frame asks whether to quit). `answered`: the reviewer has just said y to leaving without saving,
   * so nothing is asked again.
   */
  leave(answered?: boolean): void;
  /** q (when nothing unsaved is in the way): out of the TUI. */
  quit(): void;
}

/**
 * The reviewer's session: keys in, state out. Keys are handled one after the other, each waiting
 * for the save or undo the one before it started, so a rating is on disk before the next key acts
 * and keys typed during a save are not lost.
 */
export function useRateSession(start: RatingSession, layout: RateLayout, options: RateSessionOptions): RateSession {
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

  const run = (change: RateStep): void => {
    queue.current = queue.current
      .then(async () => {
        const current = state.current;
        const next = await change(current);
        if (next !== current) set(next);
      })
      .catch((error: unknown) => set({ ...state.current, message: { text: describe(error), error: true } }));
  };

  useKeys((input, key) => {
    for (const stroke of keystrokes(input, key)) run((current) => step(current, stroke, layoutRef.current, optionsRef.current));
  });
  return { state: state.current, run };
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
    case 'conflict':
      return resolvingConflict(state, stroke, options);
    case 'list':
      // The item list (rate/item-list-view.tsx) reads its own keys and changes the state with `run`.
      return state;
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
    if (text === 'q') return askToLeave(state, 'quit', options);
    if (text === 'u') return undo(state, options);
    if (text === 'l') return { ...state, mode: 'list', message: undefined };
    if (!item) return state;
    if (text === '[') return openItem(state, session.position - 1);
    if (text === ']') return openItem(state, session.position + 1);
    const axis = axes[state.focus];
    if (/^[1-5]$/.test(text) && axis !== undefined) {
      return { ...state, scores: { ...state.scores, [axis]: Number(text) }, focus: Math.min(state.focus + 1, axes.length - 1), message: undefined };
    }
    if (text === 's') return { ...state, mode: 'skip', draft: '', message: undefined };
    if (text === 'n') return { ...state, mode: 'note', draft: state.note, message: undefined };
    if (text === '?' || text === 'r') {
      const axisLine = layout.rubricLineOf(rubricAxisLine(options.rubricText, axes[state.focus] ?? ''));
      return { ...state, mode: 'rubric', rubricScroll: clamp(axisLine, 0, layout.rubricLines - layout.rubricRows) };
    }
    return state;
  }
  if (stroke.name === 'escape') return askToLeave(state, 'back', options);
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
  // Enter on a rated item left as it was writes nothing (its rated_at stays the time it was rated)
  // and moves on as a save would.
  if (item.own && !hasUnsavedWork(state)) {
    const next = freshItem({ ...state, session: { ...session, position: nextPosition(session, session.position) } });
    return { ...next, message: { text: `${item.id} unchanged: your rating stays as it was (nothing written)`, error: false } };
  }
  const given: OwnRating = state.note.trim() === '' ? { scores: state.scores } : { scores: state.scores, note: state.note.trim() };
  return saveGiven(state, item.id, given, item.own ?? null, options);
}

/**
 * Writes `given` for the item unless the reviewer's rating in the file is no longer `expected`
 * (another session of theirs saved or took it back meanwhile): then nothing is written and the
 * screen shows both ratings and asks which to keep.
 */
async function saveGiven(state: RateState, itemId: string, given: OwnRating, expected: OwnRating | null, options: RateSessionOptions): Promise<RateState> {
  const { session } = state;
  try {
    await saveRating(options.setFile, itemId, ratingToSave(session, given, options.clock.now()), { expected });
  } catch (error) {
    if (error instanceof RatingConflict) return { ...state, mode: 'conflict', clash: clashOf(error, session.axes, given), message: undefined };
    throw error;
  }
  const next = freshItem({ ...state, mode: 'rate', clash: undefined, session: recordSave(session, itemId, given) });
  return { ...next, message: { text: `saved ${itemId}`, error: false } };
}

function clashOf(error: RatingConflict, axes: readonly string[], mine: OwnRating): RatingClash {
  const theirs = error.onDisk ? { ...knownRating(error.onDisk, axes), ratedAt: error.onDisk.rated_at } : undefined;
  return { itemId: error.itemId, mine, ...(theirs ? { theirs } : {}) };
}

/**
 * In `conflict` mode: `o` writes this session's rating over the other one (asking again if it
 * changed once more), `k` keeps the other one (the session shows it from now on), Esc goes back to
 * the item with this session's scores, nothing written.
 */
async function resolvingConflict(state: RateState, stroke: Keystroke, options: RateSessionOptions): Promise<RateState> {
  const clash = state.clash;
  if (!clash) return { ...state, mode: 'rate' };
  const theirs = clash.theirs ? ownOf(clash.theirs) : undefined;
  if ('text' in stroke && stroke.text === 'o') return saveGiven(state, clash.itemId, clash.mine, theirs ?? null, options);
  if ('text' in stroke && stroke.text === 'k') {
    const kept = freshItem({ ...state, mode: 'rate', clash: undefined, session: adoptRating(state.session, clash.itemId, theirs) });
    return { ...kept, message: { text: `kept the rating of ${clash.itemId} from the other session`, error: false } };
  }
  if ('name' in stroke && stroke.name === 'escape') {
    return { ...state, mode: 'rate', clash: undefined, message: { text: 'nothing saved: Enter asks again', error: false } };
  }
  return state;
}

function ownOf(rating: OwnRating & { ratedAt: string }): OwnRating {
  return rating.note === undefined ? { scores: rating.scores } : { scores: rating.scores, note: rating.note };
}

/** `[` `]` and the item list: shows the item at `index`, asking first when unsaved scores would be dropped. */
export function openItem(state: RateState, index: number): RateState {
  const target = showItem(state.session, index);
  if (target.position === state.session.position) return { ...state, mode: 'rate' };
  if (hasUnsavedWork(state)) return { ...state, mode: 'leave', leaving: { show: target.position }, message: undefined };
  return { ...freshItem({ ...state, session: target }), mode: 'rate', message: undefined };
}

async function undo(state: RateState, options: RateSessionOptions): Promise<RateState> {
  const last = lastSaved(state.session);
  if (!last) return { ...state, message: { text: 'nothing to undo: no rating saved in this session', error: true } };
  try {
    await removeRating(options.setFile, last.id, state.session.reviewer, { expected: last.own ?? null });
  } catch (error) {
    if (!(error instanceof RatingConflict)) throw error;
    // Another session of this reviewer saved or took back the item since: that rating stays.
    const theirs = error.onDisk ? knownRating(error.onDisk, state.session.axes) : undefined;
    const session = adoptRating(state.session, last.id, theirs);
    return { ...freshItem({ ...state, session }), message: { text: `not taken back: ${last.id} was changed in another session of ${state.session.reviewer} since; that rating stays`, error: true } };
  }
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
    if (stroke.text === '?' || stroke.text === 'r') return { ...state, mode: 'rate' };
    return stroke.text === 'q' ? askToLeave({ ...state, mode: 'rate' }, 'quit', options) : state;
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
export function askToLeave(state: RateState, how: 'back' | 'quit', options: Pick<RateSessionOptions, 'leave' | 'quit'>): RateState {
  if (hasUnsavedWork(state)) return { ...state, mode: 'leave', leaving: how, message: undefined };
  if (how === 'quit') options.quit();
  else options.leave();
  return state;
}

function confirmingLeave(state: RateState, stroke: Keystroke, options: RateSessionOptions): RateState {
  if ('text' in stroke && stroke.text.toLowerCase() === 'y') {
    const leaving = state.leaving;
    if (typeof leaving === 'object') return { ...freshItem({ ...state, session: showItem(state.session, leaving.show) }), mode: 'rate', leaving: undefined, message: undefined };
    if (leaving === 'quit') options.quit();
    else options.leave(true);
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
