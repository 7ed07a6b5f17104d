/**
 * Turns the `?` placeholders of shared SQL into PostgreSQL's `$1, $2, …`. A `?` inside a string
 * literal ('it''s?'), a quoted identifier ("a?"), a dollar-quoted body ($$…?…$$) or a comment is
 * text, not a placeholder, and is kept as it is.
 */
export function numberedPlaceholders(sql: string): string {
  let out = '';
  let next = 1;
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
      out += `$${next}`;
      next += 1;
      i += 1;
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
