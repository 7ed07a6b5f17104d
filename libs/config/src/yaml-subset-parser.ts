/**
 * A fast parser for the plain subset of YAML that scenario files are written in: block mappings
 * and lists, one-line flow collections (`[a, b]`, `{ returns: { id: 1 } }`), plain and quoted
 * one-line scalars, `|` / `|-` literal blocks and comments.
 *
 * Why it exists: the `yaml` package builds a full syntax tree and takes ~75 µs for a ten-line
 * file, so a suite of 10,000 scenarios spent over a second in parsing alone. This parser is about
 * ten times faster. It never guesses: on anything outside the subset (anchors, tags, multi-line
 * plain or quoted scalars, folded blocks, duplicate keys, odd indentation, syntax errors, …) it
 * answers `undefined` and the caller parses the text with `yaml`, which also locates errors.
 * Where it answers, the result equals `yaml`'s `parse(text)` (a property test holds it to that).
 */
export function parseYamlSubset(text: string): { value: unknown } | undefined {
  try {
    return { value: new SubsetParser(text).parseDocument() };
  } catch (error) {
    // Deep nesting overflows this recursive parser: `yaml` then parses it and says where.
    if (error === OUTSIDE_SUBSET || error instanceof RangeError) return undefined;
    throw error;
  }
}

/** Thrown (one shared instance, no stack capture cost) to abandon the fast parse. */
const OUTSIDE_SUBSET = Object.freeze({ reason: 'outside the YAML subset' });

/** Characters the subset does not handle anywhere: tabs, control characters, unusual line breaks, BOMs. */
const UNSUPPORTED_CHARACTERS = /[\t\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;

const PLAIN_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*:(?= |$)/;
/** YAML refuses implicit keys longer than this. */
const MAX_IMPLICIT_KEY_LENGTH = 1024;
const LITERAL_HEADER = /^\|(-?)(?: +#.*)? *$/;
const TRAILING_COMMENT_OR_SPACE = /^ *(?:$| #)/;

/** Scalars resolved as in `yaml`'s default YAML 1.2 core schema. */
const NULL_SCALAR = /^(?:~|[Nn]ull|NULL)?$/;
const BOOLEAN_SCALAR = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const DECIMAL_INTEGER = /^[-+]?[0-9]+$/;
const EXPONENT_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const DECIMAL_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;
/** Octal, hexadecimal, infinities and NaN: valid, but rare enough to leave to `yaml`. */
const OTHER_NUMBER = /^(?:0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;

/** First characters that make a plain scalar something else (or an error) in YAML. */
const INDICATOR_START = /^(?:[&*!|>%@`?:,\]}#'"[{]|-(?: |$))/;

interface Line {
  indent: number;
  /** The line after its indentation. */
  text: string;
}

function outside(): never {
  throw OUTSIDE_SUBSET;
}

function resolvePlainScalar(text: string): unknown {
  // Most scalars are words: the first character rules out every other type cheaply.
  const first = text.charCodeAt(0);
  const mayBeNumber = (first >= 48 && first <= 57) || first === 43 || first === 45 || first === 46; // 0-9 + - .
  if (mayBeNumber) {
    if (DECIMAL_INTEGER.test(text)) return parseInt(text, 10);
    if (EXPONENT_FLOAT.test(text) || DECIMAL_FLOAT.test(text)) return parseFloat(text);
    if (OTHER_NUMBER.test(text)) outside();
    return text;
  }
  if (NULL_SCALAR.test(text)) return null;
  if (BOOLEAN_SCALAR.test(text)) return first === 116 || first === 84; // t T
  return text;
}

function isSequenceEntry(text: string): boolean {
  return text[0] === '-' && (text.length === 1 || text[1] === ' ');
}

function isBlankOrComment(line: Line): boolean {
  return line.text === '' || line.text[0] === '#';
}

function setKey(mapping: Record<string, unknown>, key: string, value: unknown): void {
  // Duplicates are errors `yaml` reports with a position; `__proto__` needs its special handling.
  if (key === '__proto__' || Object.hasOwn(mapping, key)) outside();
  mapping[key] = value;
}

class SubsetParser {
  private readonly lines: Line[];
  /** Index of the line being parsed. */
  private index = 0;

  constructor(text: string) {
    if (text.includes('\r')) {
      if (/\r(?!\n)/.test(text)) outside();
      text = text.replaceAll('\r\n', '\n');
    }
    if (UNSUPPORTED_CHARACTERS.test(text)) outside();
    this.lines = text.split('\n').map((raw) => {
      let indent = 0;
      while (raw.charCodeAt(indent) === 32) indent++;
      return { indent, text: raw.slice(indent) };
    });
  }

  parseDocument(): unknown {
    const first = this.nextContentLine(0);
    if (first < 0) outside();
    const line = this.lines[first]!;
    if (line.indent !== 0 || /^(?:---|\.\.\.|%)/.test(line.text)) outside();
    this.index = first;
    const value = this.parseBlockNode(0);
    if (this.nextContentLine(this.index) >= 0) outside();
    return value;
  }

  /** Index of the next line at or after `from` that is neither blank nor a comment, or -1. */
  private nextContentLine(from: number): number {
    for (let index = from; index < this.lines.length; index++) {
      if (!isBlankOrComment(this.lines[index]!)) return index;
    }
    return -1;
  }

  /** A block mapping or list starting at the current line, whose indentation is `indent`. */
  private parseBlockNode(indent: number): unknown {
    const text = this.lines[this.index]!.text;
    if (isSequenceEntry(text)) return this.parseSequence(indent);
    if (splitKey(text)) return this.parseMapping(indent);
    return outside();
  }

  private parseMapping(indent: number): Record<string, unknown> {
    const mapping: Record<string, unknown> = {};
    for (;;) {
      const next = this.nextContentLine(this.index);
      if (next < 0) break;
      const line = this.lines[next]!;
      if (line.indent < indent) break;
      if (line.indent > indent) outside();
      const entry = splitKey(line.text) ?? outside();
      this.index = next + 1;
      setKey(mapping, entry.key, this.parseValue(entry.rest, indent, true));
    }
    return mapping;
  }

  private parseSequence(indent: number): unknown[] {
    const sequence: unknown[] = [];
    for (;;) {
      const next = this.nextContentLine(this.index);
      if (next < 0) break;
      const line = this.lines[next]!;
      if (line.indent < indent) break;
      if (line.indent > indent) outside();
      if (!isSequenceEntry(line.text)) break;
      const rest = line.text.slice(1);
      const content = rest.trimStart();
      if (content !== '' && content[0] !== '#' && (isSequenceEntry(content) || splitKey(content))) {
        // `- key: value` opens a mapping whose keys line up with `key` (and `- - x` a list whose
        // entries line up with the inner dash): parse it from a line rewritten to start there.
        const nestedIndent = indent + 1 + rest.length - content.length;
        this.lines[next] = { indent: nestedIndent, text: content };
        this.index = next;
        sequence.push(this.parseBlockNode(nestedIndent));
        continue;
      }
      this.index = next + 1;
      sequence.push(this.parseValue(rest, indent, false));
    }
    return sequence;
  }

  /**
   * The value after `key:` or `-` (`rest` is what follows the indicator on its line). In a
   * mapping, a list may sit at the key's own indentation.
   */
  private parseValue(rest: string, indent: number, inMapping: boolean): unknown {
    const content = rest.trimStart();
    if (content === '' || content[0] === '#') {
      const next = this.nextContentLine(this.index);
      if (next < 0) return null;
      const line = this.lines[next]!;
      const nestedBlock = line.indent > indent || (inMapping && line.indent === indent && isSequenceEntry(line.text));
      if (!nestedBlock) return null;
      this.index = next;
      return this.parseBlockNode(line.indent);
    }
    if (content[0] === '|') {
      const header = LITERAL_HEADER.exec(content) ?? outside();
      return this.parseLiteralBlock(indent, header[1] === '-');
    }
    const value = parseInlineValue(content);
    // A more indented line after a one-line value continues it (multi-line scalar) or is an error.
    const next = this.nextContentLine(this.index);
    if (next >= 0 && this.lines[next]!.indent > indent) outside();
    return value;
  }

  /** `|` (keep one final line break) or `|-` (strip it) block, starting at the current line. */
  private parseLiteralBlock(parentIndent: number, strip: boolean): string {
    let first = this.index;
    while (first < this.lines.length && this.lines[first]!.text === '') first++;
    if (first === this.lines.length || this.lines[first]!.indent <= parentIndent) outside();
    const contentIndent = this.lines[first]!.indent;
    const parts: string[] = [];
    let end = this.index;
    for (; end < this.lines.length; end++) {
      const line = this.lines[end]!;
      if (line.text === '') {
        // Spaces beyond the block's indentation on an otherwise empty line are content; leave that to `yaml`.
        if (line.indent > contentIndent) outside();
        parts.push('');
        continue;
      }
      if (line.indent < contentIndent) break;
      parts.push(' '.repeat(line.indent - contentIndent) + line.text);
    }
    if (end < this.lines.length && this.lines[end]!.indent > parentIndent) outside();
    while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
    this.index = end;
    const body = parts.join('\n');
    return strip ? body : `${body}\n`;
  }
}

/** `key:` at the start of a line: the key and what follows the colon, or undefined. */
function splitKey(text: string): { key: string; rest: string } | undefined {
  const quote = text[0];
  if (quote === '"' || quote === "'") {
    const { value, end } = quote === '"' ? readDoubleQuoted(text, 0) : readSingleQuoted(text, 0);
    if (text[end] !== ':' || (end + 1 < text.length && text[end + 1] !== ' ')) return undefined;
    if (end > MAX_IMPLICIT_KEY_LENGTH) outside();
    return { key: value, rest: text.slice(end + 1) };
  }
  const match = PLAIN_KEY.exec(text);
  if (!match) return undefined;
  const key = match[0].slice(0, -1);
  if (key.length > MAX_IMPLICIT_KEY_LENGTH) outside();
  // `1:`, `true:` and `null:` are keys of other types that `yaml` converts in its own way.
  if (typeof resolvePlainScalar(key) !== 'string') outside();
  return { key, rest: text.slice(match[0].length) };
}

/** A value written on the rest of a line: quoted, a flow collection, or plain; then maybe a comment. */
function parseInlineValue(content: string): unknown {
  const first = content[0];
  if (first === '"' || first === "'" || first === '[' || first === '{') {
    const { value, end } =
      first === '"' ? readDoubleQuoted(content, 0) : first === "'" ? readSingleQuoted(content, 0) : readFlow(content, 0);
    if (!TRAILING_COMMENT_OR_SPACE.test(content.slice(end))) outside();
    return value;
  }
  if (INDICATOR_START.test(content)) outside();
  const commentStart = content.indexOf(' #');
  const plain = (commentStart < 0 ? content : content.slice(0, commentStart)).trimEnd();
  if (plain.includes(': ') || plain.endsWith(':')) outside();
  return resolvePlainScalar(plain);
}

function readDoubleQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  let position = start + 1;
  for (;;) {
    const closing = text.indexOf('"', position);
    const escape = text.indexOf('\\', position);
    if (closing < 0) outside();
    if (escape < 0 || closing < escape) return { value: value + text.slice(position, closing), end: closing + 1 };
    value += text.slice(position, escape);
    const code = text[escape + 1];
    position = escape + 2;
    switch (code) {
      case '"':
      case '\\':
      case '/':
        value += code;
        break;
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case 'r':
        value += '\r';
        break;
      case 'u': {
        const hex = text.slice(position, position + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) outside();
        value += String.fromCharCode(parseInt(hex, 16));
        position += 4;
        break;
      }
      default:
        outside();
    }
  }
}

function readSingleQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  let position = start + 1;
  for (;;) {
    const closing = text.indexOf("'", position);
    if (closing < 0) outside();
    value += text.slice(position, closing);
    if (text[closing + 1] !== "'") return { value, end: closing + 1 };
    value += "'";
    position = closing + 2;
  }
}

function skipSpaces(text: string, position: number): number {
  while (text.charCodeAt(position) === 32) position++;
  return position;
}

/** A one-line `[…]` or `{…}` starting at `start`. */
function readFlow(text: string, start: number): { value: unknown; end: number } {
  const isSequence = text[start] === '[';
  const closer = isSequence ? ']' : '}';
  const sequence: unknown[] = [];
  const mapping: Record<string, unknown> = {};
  let position = skipSpaces(text, start + 1);
  if (text[position] === closer) return { value: isSequence ? sequence : mapping, end: position + 1 };
  for (;;) {
    if (isSequence) {
      const item = readFlowItem(text, position);
      sequence.push(item.value);
      position = item.end;
    } else {
      const key = readFlowKey(text, position);
      const item = readFlowItem(text, key.end);
      setKey(mapping, key.key, item.value);
      position = item.end;
    }
    position = skipSpaces(text, position);
    if (text[position] === closer) return { value: isSequence ? sequence : mapping, end: position + 1 };
    if (text[position] !== ',') outside();
    position = skipSpaces(text, position + 1);
    // A trailing comma, or an empty entry, is left to `yaml`.
    if (text[position] === closer || text[position] === ',') outside();
  }
}

/** `key: ` inside a flow mapping: the key and the position after `: `. */
function readFlowKey(text: string, position: number): { key: string; end: number } {
  const quote = text[position];
  let key: string;
  let end: number;
  if (quote === '"' || quote === "'") {
    ({ value: key, end } = quote === '"' ? readDoubleQuoted(text, position) : readSingleQuoted(text, position));
  } else {
    const match = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*/.exec(text.slice(position)) ?? outside();
    key = match[0];
    end = position + key.length;
    if (typeof resolvePlainScalar(key) !== 'string') outside();
  }
  if (text[end] !== ':' || text[end + 1] !== ' ') outside();
  return { key, end: end + 2 };
}

function readFlowItem(text: string, position: number): { value: unknown; end: number } {
  position = skipSpaces(text, position);
  const first = text[position];
  if (first === '[' || first === '{') return readFlow(text, position);
  if (first === '"' || first === "'") {
    const quoted = first === '"' ? readDoubleQuoted(text, position) : readSingleQuoted(text, position);
    // `"key": value` inside a flow list is a one-entry mapping: left to `yaml`.
    if (text[skipSpaces(text, quoted.end)] === ':') outside();
    return quoted;
  }
  let end = position;
  while (end < text.length && !',[]{}'.includes(text[end]!)) end++;
  const plain = text.slice(position, end).trimEnd();
  if (plain === '' || plain.includes(':') || plain.includes('#') || INDICATOR_START.test(plain)) outside();
  return { value: resolvePlainScalar(plain), end };
}
