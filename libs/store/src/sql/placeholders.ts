import type { SqlParams, SqlValue } from './sync-sql.js';

/**
 * Turns the `?` placeholders of shared SQL into PostgreSQL's `$1, $2, …`. A `?` inside a string
 * literal ('it''s?'), a quoted identifier ("a?"), a dollar-quoted body ($$…?…$$) or a comment is
 * text, not a placeholder, and is kept as it is.
 */
export function numberedPlaceholders(sql: string): string {
  let next = 1;
  return rewritePlaceholders(sql, () => `$${next++}`, (name) => `@${name}`);
}

/**
 * A statement for node-postgres: `?` placeholders bound in order from an array, or `@name`
 * placeholders (better-sqlite3's named form) bound from an object, both as `$n`. A name used twice
 * is bound once. A name missing from the object is an error here, as better-sqlite3 reports it.
 */
export function pgStatement(sql: string, params: SqlParams = []): { text: string; values: SqlValue[] } {
  if (Array.isArray(params)) return { text: numberedPlaceholders(sql), values: (params as readonly SqlValue[]).map(flag) };
  const named = params as Readonly<Record<string, SqlValue>>;
  const numbers = new Map<string, number>();
  const values: SqlValue[] = [];
  const text = rewritePlaceholders(
    sql,
    () => {
      throw new Error('a statement with named parameters cannot also have ? placeholders');
    },
    (name) => {
      let number = numbers.get(name);
      if (number === undefined) {
        if (!Object.hasOwn(named, name)) throw new Error(`missing named parameter "${name}"`);
        values.push(flag(named[name] ?? null));
        number = values.length;
        numbers.set(name, number);
      }
      return `$${number}`;
    },
  );
  return { text, values };
}

/** Flags are 0/1 integers on both databases (the store's columns are INTEGER, not BOOLEAN). */
function flag(value: SqlValue): SqlValue {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}

/** Rewrites each placeholder outside literals, quoted identifiers and comments. */
function rewritePlaceholders(sql: string, positional: () => string, named: (name: string) => string): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const char = sql[i]!;
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, i, char);
      out += sql.slice(i, end);
      i = end;
    } else if (char === '-' && sql[i + 1] === '-') {
      const newline = sql.indexOf('\n', i);
      const end = newline === -1 ? sql.length : newline;
      out += sql.slice(i, end);
      i = end;
    } else if (char === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close === -1 ? sql.length : close + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (char === '$' && /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.test(sql.slice(i)) && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(sql.slice(i))![0];
      const close = sql.indexOf(tag, i + tag.length);
      const end = close === -1 ? sql.length : close + tag.length;
      out += sql.slice(i, end);
      i = end;
    } else if (char === '?') {
      out += positional();
      i += 1;
    } else if (char === '@' && /[A-Za-z_]/.test(sql[i + 1] ?? '') && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const name = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(sql.slice(i))![1]!;
      out += named(name);
      i += name.length + 1;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}

/** Index just past the quote that closes the one at `start`; a doubled quote is an escaped one. */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else i += 1;
  }
  return sql.length;
}
