import type { Key } from 'ink';

/** What the triage actions are asking for, if anything: a yes/no for accepting, or the flaky note. */
export type ActionPrompt = { kind: 'accept' } | { kind: 'note'; text: string };

/** Longest flaky note. */
const NOTE_MAX = 200;

/** A key pressed while a prompt is open: the prompt it leaves open (if any), and what to do now. */
export interface PromptStep {
  prompt: ActionPrompt | undefined;
  then?: { kind: 'accept' } | { kind: 'not_accepted' } | { kind: 'mark'; note: string } | { kind: 'not_marked' };
}

/**
 * The accept question takes `y` (anything else cancels); the note takes text, Backspace, Enter
 * (mark) and Esc (cancel), up to NOTE_MAX characters.
 */
export function promptKey(prompt: ActionPrompt, input: string, key: Key): PromptStep {
  if (prompt.kind === 'accept') return { prompt: undefined, then: input === 'y' ? { kind: 'accept' } : { kind: 'not_accepted' } };
  if (key.return) return { prompt: undefined, then: { kind: 'mark', note: prompt.text } };
  if (key.escape) return { prompt: undefined, then: { kind: 'not_marked' } };
  if (key.backspace || key.delete) return { prompt: { kind: 'note', text: prompt.text.slice(0, -1) } };
  if (input !== '' && !key.ctrl && !key.meta) return { prompt: { kind: 'note', text: (prompt.text + input).slice(0, NOTE_MAX) } };
  return { prompt };
}
