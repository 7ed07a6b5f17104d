/**
 * Text from outside Parley (an agent's reply or what it printed, a judge's reason) made safe to
 * show in a terminal: control characters are written as visible escapes, so an agent printing
 * `\x1b[31m` or `\x00` cannot recolour, move the cursor in or garble the console and the TUI.
 * Line feeds and tabs stay: they are layout, not control.
 *
 * @example terminalSafe('\u001b[31mred\u0000') === '\\x1b[31mred\\x00'
 */
export function terminalSafe(text: string): string {
  return UNSAFE.test(text) ? text.replace(UNSAFE_ALL, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`) : text;
}

/** C0 controls but tab and line feed, DEL, and C1 controls (U+0080–U+009F, read as CSI by some terminals). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'g');
