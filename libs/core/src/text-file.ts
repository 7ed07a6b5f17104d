import { isUtf8 } from 'node:buffer';
import type { ConfigIssue } from './config-error.js';

/**
 * Reading the files people write (suites, scenarios, recordings, calibration sets) as UTF-8 text,
 * refusing what is not text. Node's `readFileSync(file, 'utf8')` turns invalid bytes (a file saved
 * as Latin-1) into U+FFFD without a word, and YAML keeps control characters (NUL, ESC) that then
 * reach reports and terminals; both are refused here with the line and column where they are.
 */

/**
 * Control characters a text file may not hold: C0 except tab, line feed and carriage return;
 * DEL; C1 except NEL (U+0085, a YAML line break). Written as escapes, they are fine.
 */
const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u0084\u0086-\u009f]/;

const CONTROL_NAMES: Record<number, string> = {
  0x00: 'NUL',
  0x07: 'BEL',
  0x08: 'backspace',
  0x0b: 'vertical tab',
  0x0c: 'form feed',
  0x1b: 'ESC',
  0x7f: 'DEL',
};

/** The text of UTF-8 bytes, or a located issue at the first byte that is not UTF-8. */
export function decodeUtf8(bytes: Uint8Array, file: string): { text: string } | { issue: ConfigIssue } {
  if (isUtf8(bytes)) return { text: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') };
  const offset = firstInvalidUtf8Byte(bytes);
  const lineStart = bytes.lastIndexOf(0x0a, offset - 1) + 1;
  let line = 1;
  for (let index = 0; index < lineStart; index++) if (bytes[index] === 0x0a) line++;
  const column = Buffer.from(bytes.subarray(lineStart, offset)).toString('utf8').length + 1;
  const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0');
  return {
    issue: {
      file,
      line,
      column,
      message: `the file is not UTF-8 text (byte 0x${byte}); save it as UTF-8`,
      severity: 'error',
    },
  };
}

/** The first control character of a text (see {@link CONTROL_CHARACTER}) as a located issue. */
export function controlCharacterIssue(text: string, file: string): ConfigIssue | undefined {
  const match = CONTROL_CHARACTER.exec(text);
  if (!match) return undefined;
  const offset = match.index;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line++;
  const code = text.charCodeAt(offset);
  const name = CONTROL_NAMES[code];
  const written = `U+${code.toString(16).toUpperCase().padStart(4, '0')}${name ? ` (${name})` : ''}`;
  return {
    file,
    line,
    column: offset - lineStart + 1,
    message: `control character ${written} is not allowed in the file; write it as an escape (such as "\\u${code.toString(16).padStart(4, '0')}" in a double-quoted string) if it is meant`,
    severity: 'error',
  };
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629). */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const first = bytes[index]!;
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (first < 0x80) length = 1;
    else if (first >= 0xc2 && first <= 0xdf) length = 2;
    else if (first >= 0xe0 && first <= 0xef) {
      length = 3;
      if (first === 0xe0) low = 0xa0; // no overlong forms
      if (first === 0xed) high = 0x9f; // no surrogates
    } else if (first >= 0xf0 && first <= 0xf4) {
      length = 4;
      if (first === 0xf0) low = 0x90;
      if (first === 0xf4) high = 0x8f; // nothing above U+10FFFF
    } else return index;
    for (let continuation = 1; continuation < length; continuation++) {
      const byte = bytes[index + continuation];
      const min = continuation === 1 ? low : 0x80;
      const max = continuation === 1 ? high : 0xbf;
      if (byte === undefined || byte < min || byte > max) return index;
    }
    index += length;
  }
  return index;
}
