import fc from 'fast-check';

/**
 * Damage done to a file's bytes, the ways people and tools damage configuration files: a stray
 * byte from another encoding, a control character pasted from a terminal, an alias with no
 * anchor, an alias bomb, nesting thousands deep, thousands of unknown keys, a line lost or
 * doubled, a file cut short. Each is a pure function of the original bytes.
 */
export type Mutation =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'insert-bytes'; at: number; bytes: number[] }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'duplicate-line'; at: number }
  | { kind: 'deep-nesting'; at: number; depth: number; flow: boolean }
  | { kind: 'alias-bomb' }
  | { kind: 'unknown-keys'; count: number };

/** Snippets that mean something to a YAML or JSON parser, and text that should not be in a file. */
const SNIPPETS = [
  '*nope',
  '&anchor ',
  '[',
  ']',
  '{',
  '}',
  ': ',
  '- ',
  '\t',
  '"',
  "'",
  '|',
  '>',
  '!!binary ',
  '!custom ',
  '? ',
  '%YAML 1.1\n',
  '---\n',
  '\n...\n',
  '\n',
  '    ',
  '# ',
  'x: y\n',
  '<<: *nope\n',
  '\u0000',
  '\u001b[31m',
  '\u0007',
  '\u0085',
  '\u2028',
  '\ufeff',
  'ü',
  '😀',
  '1e999',
  '-.inf',
  '0x1F',
  'null',
  '~',
  'true',
  '__proto__: 1\n',
  'constructor: 1\n',
];

/** Single bytes that are not UTF-8 on their own: Latin-1 letters, a lone continuation byte, 0xFF. */
const INVALID_UTF8 = [[0xe9], [0xfc], [0x80], [0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]];

/** A fraction of the file's length, so one generated mutation applies to files of any size. */
const position = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: position, text: fc.oneof(fc.constantFrom(...SNIPPETS), fc.string({ maxLength: 8 })) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('insert-bytes' as const), at: position, bytes: fc.constantFrom(...INVALID_UTF8) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: position, length: fc.integer({ min: 1, max: 40 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: position }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('duplicate-line' as const), at: position }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('deep-nesting' as const), at: position, depth: fc.constantFrom(99, 150, 1_000, 10_000), flow: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('alias-bomb' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unknown-keys' as const), count: fc.constantFrom(1, 20, 2_000) }) },
);

/** One to three mutations, applied in order. */
export const mutationsArbitrary = fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 });

/** The bytes after a mutation. */
export function mutate(original: Buffer, mutation: Mutation): Buffer {
  const offset = (fraction: number): number => Math.floor(fraction * (original.length + 1));
  switch (mutation.kind) {
    case 'insert':
      return splice(original, offset(mutation.at), 0, Buffer.from(mutation.text, 'utf8'));
    case 'insert-bytes':
      return splice(original, offset(mutation.at), 0, Buffer.from(mutation.bytes));
    case 'delete':
      return splice(original, offset(mutation.at), mutation.length, Buffer.alloc(0));
    case 'truncate':
      return original.subarray(0, offset(mutation.at));
    case 'duplicate-line': {
      const at = offset(mutation.at);
      const start = original.lastIndexOf(0x0a, at - 1) + 1;
      const newline = original.indexOf(0x0a, at);
      const end = newline < 0 ? original.length : newline + 1;
      return splice(original, end, 0, original.subarray(start, end));
    }
    case 'deep-nesting': {
      const open = mutation.flow ? '['.repeat(mutation.depth) : `\n${'- '.repeat(mutation.depth)}`;
      const close = mutation.flow ? ']'.repeat(mutation.depth) : '1\n';
      // At the end of a line, so the nesting becomes the value of whatever key the line holds.
      const at = original.indexOf(0x0a, offset(mutation.at));
      return splice(original, at < 0 ? original.length : at, 0, Buffer.from(` ${open}${close}`, 'utf8'));
    }
    case 'alias-bomb': {
      const levels = ['bomb_a: &bomb_a ["x","x","x","x","x","x","x","x","x","x"]'];
      for (let level = 1; level < 9; level++) {
        const previous = `bomb_${String.fromCharCode(96 + level)}`;
        const name = `bomb_${String.fromCharCode(97 + level)}`;
        levels.push(`${name}: &${name} [${Array.from({ length: 10 }, () => `*${previous}`).join(',')}]`);
      }
      return Buffer.concat([original, Buffer.from(`\n${levels.join('\n')}\n`, 'utf8')]);
    }
    case 'unknown-keys': {
      const keys = Array.from({ length: mutation.count }, (_, index) => `unknown_key_${index}: ${index}`).join('\n');
      return Buffer.concat([original, Buffer.from(`\n${keys}\n`, 'utf8')]);
    }
  }
}

function splice(bytes: Buffer, at: number, deleteCount: number, insert: Buffer): Buffer {
  return Buffer.concat([bytes.subarray(0, at), insert, bytes.subarray(Math.min(bytes.length, at + deleteCount))]);
}
