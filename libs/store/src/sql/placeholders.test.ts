import { describe, expect, it } from 'vitest';
import { numberedPlaceholders } from './placeholders.js';

describe('numberedPlaceholders', () => {
  it('numbers each placeholder in order', () => {
    expect(numberedPlaceholders('UPDATE t SET a = ?, b = ? WHERE k = ?')).toBe('UPDATE t SET a = $1, b = $2 WHERE k = $3');
  });

  it('keeps a question mark inside string literals, quoted identifiers, dollar quotes and comments', () => {
    const sql = `SELECT 'what?', 'it''s ?', "col?" FROM t -- why?\nWHERE a = ? /* b = ? */ AND c = $$x?$$ AND d = $tag$?$tag$ AND e = ?`;
    expect(numberedPlaceholders(sql)).toBe(
      `SELECT 'what?', 'it''s ?', "col?" FROM t -- why?\nWHERE a = $1 /* b = ? */ AND c = $$x?$$ AND d = $tag$?$tag$ AND e = $2`,
    );
  });

  it('leaves SQL without placeholders unchanged, and an already numbered one alone', () => {
    expect(numberedPlaceholders('SELECT 1')).toBe('SELECT 1');
    expect(numberedPlaceholders('SELECT $1')).toBe('SELECT $1');
  });
});
