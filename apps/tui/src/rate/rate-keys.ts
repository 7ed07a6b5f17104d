import type { Key } from 'ink';

/** One key as the rating session handles it: a named key, or one typed character. */
export type Keystroke =
  | { name: 'return' | 'tab' | 'shiftTab' | 'left' | 'right' | 'up' | 'down' | 'pageUp' | 'pageDown' | 'home' | 'end' | 'escape' | 'backspace' }
  | { text: string };

const CONTROL_CHARACTERS: Readonly<Record<string, Keystroke>> = {
  '\r': { name: 'return' },
  '\n': { name: 'return' },
  '\t': { name: 'tab' },
  '\u007F': { name: 'backspace' },
  '\b': { name: 'backspace' },
};

/**
 * Ink's input event as single keys. A fast typist (or `tmux send-keys`) can deliver several keys
 * in one read, which Ink passes on as one string (`453\r`): each is handled in turn, so
 * `4 5 3 Enter` rates an item however the terminal groups the bytes.
 */
export function keystrokes(input: string, key: Key): Keystroke[] {
  if (key.return) return [{ name: 'return' }];
  if (key.tab) return [{ name: key.shift ? 'shiftTab' : 'tab' }];
  if (key.leftArrow) return [{ name: 'left' }];
  if (key.rightArrow) return [{ name: 'right' }];
  if (key.upArrow) return [{ name: 'up' }];
  if (key.downArrow) return [{ name: 'down' }];
  if (key.pageUp) return [{ name: 'pageUp' }];
  if (key.pageDown) return [{ name: 'pageDown' }];
  if (key.home) return [{ name: 'home' }];
  if (key.end) return [{ name: 'end' }];
  if (key.escape) return [{ name: 'escape' }];
  if (key.backspace || key.delete) return [{ name: 'backspace' }];
  if (key.ctrl || key.meta) return [];
  return Array.from(input).flatMap((character): Keystroke[] => {
    const control = CONTROL_CHARACTERS[character];
    if (control) return [control];
    return character < ' ' ? [] : [{ text: character }];
  });
}
