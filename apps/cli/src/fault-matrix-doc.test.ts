import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './test-support/example-copy.js';
import { FAULT_KINDS, FAULT_MATRIX, faultMatrixMarkdown } from './test-support/fault-matrix.js';

/**
 * docs/reliability.md's matrix of every command is `test-support/fault-matrix.ts` as markdown:
 * the doc must say exactly what the table says, and every test the table names must exist with
 * the title it quotes. A cell that claims to hold without a test, or a doc edited by hand away
 * from the table, fails here. `PARLEY_WRITE_DOCS=1` rewrites the doc's matrix from the table.
 */

const DOC = join(REPO_ROOT, 'docs/reliability.md');
const START = '<!-- fault-matrix: generated from apps/cli/src/test-support/fault-matrix.ts -->';
const END = '<!-- fault-matrix: end -->';

describe('the fault matrix of every command (docs/reliability.md)', () => {
  it('the doc shows the table the tests keep, word for word', () => {
    const expected = `${START}\n${faultMatrixMarkdown()}\n${END}`;
    const section = (doc: string) => {
      const start = doc.indexOf(START);
      const end = doc.indexOf(END);
      expect(start, `docs/reliability.md needs the markers ${START} … ${END}`).toBeGreaterThan(-1);
      expect(end).toBeGreaterThan(start);
      return { start, end: end + END.length };
    };
    if (process.env.PARLEY_WRITE_DOCS === '1') {
      const doc = readFileSync(DOC, 'utf8');
      const { start, end } = section(doc);
      writeFileSync(DOC, doc.slice(0, start) + expected + doc.slice(end));
    }
    const doc = readFileSync(DOC, 'utf8');
    const { start, end } = section(doc);
    expect(doc.slice(start, end), 'docs/reliability.md: rewrite the matrix with PARLEY_WRITE_DOCS=1').toBe(expected);
  });

  it('every cell that holds names a test, and every named test exists with the title quoted', () => {
    const missing: string[] = [];
    for (const row of FAULT_MATRIX) {
      expect(Object.keys(row.cells).sort()).toEqual([...FAULT_KINDS].sort());
      for (const kind of FAULT_KINDS) {
        const cell = row.cells[kind];
        if (cell.status === 'holds' && (cell.tests ?? []).length === 0) missing.push(`${row.command} / ${kind}: holds without a test`);
        for (const test of cell.tests ?? []) {
          const path = join(REPO_ROOT, test.file);
          if (!existsSync(path)) missing.push(`${row.command} / ${kind}: no file ${test.file}`);
          else if (!readFileSync(path, 'utf8').includes(test.title)) missing.push(`${row.command} / ${kind}: ${test.file} has no test titled "${test.title}"`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('the figures above the first table are the sums of its rows, and its kinds the numbered faults below it', () => {
    const doc = readFileSync(DOC, 'utf8');
    const section = doc.slice(doc.indexOf('## Gate, privacy and data safety'), doc.indexOf('## Agents and bad input'));
    // The rows of the first table: | what was tried | cases tried | survived |
    const rows = [...section.matchAll(/^\| (.+) \| (\d+) \| (\d+) \|$/gm)].map((match) => ({ cases: Number(match[2]), survived: Number(match[3]) }));
    expect(rows.length).toBeGreaterThan(0);
    // The numbered faults of the table below it: | 1 | … |
    const kinds = [...section.matchAll(/^\| (\d+) \| /gm)].map((match) => Number(match[1]));
    expect(kinds).toEqual(kinds.map((_, index) => index + 1));
    const cases = rows.reduce((sum, row) => sum + row.cases, 0);
    const survived = rows.reduce((sum, row) => sum + row.survived, 0);
    const figures = `Figures: ${kinds.length} kinds of fault, tried in ${cases} cases, ${survived} survived:`;
    const FIGURES = /^Figures: \d+ kinds of fault, tried in \d+ cases, \d+ survived:$/m;
    if (process.env.PARLEY_WRITE_DOCS === '1') writeFileSync(DOC, doc.replace(FIGURES, figures));
    expect(readFileSync(DOC, 'utf8').match(FIGURES)?.[0], 'docs/reliability.md: rewrite the figures with PARLEY_WRITE_DOCS=1').toBe(figures);
  });
});
