import { describe, expect, it } from 'vitest';
import { renderResultsTable, type ResultRow } from './results-table.js';

const rows: ResultRow[] = [
  { workload: 'parley --version', count: null, turns: null, wallSeconds: 0.1534, wallSecondsByRun: [0.1534], peakRssMiB: 52.81, cpuSeconds: 0.2, target: '-', verdict: '-' },
  { workload: 'parley run --mode replay', count: 10_000, turns: 6, wallSeconds: 12.345, wallSecondsByRun: [12.345], peakRssMiB: 380, cpuSeconds: 15.5, target: '≤ 10 s, ≤ 400 MiB', verdict: 'over' },
];

describe('renderResultsTable', () => {
  it('prints aligned plain-text columns with the figures rounded', () => {
    const lines = renderResultsTable(rows, false).split('\n');
    const [header = '', , , replay = ''] = lines;
    expect(lines[0]).toMatch(/^workload +N +turns +wall \(s\) +peak RSS \(MiB\) +cpu \(s\) +target +verdict$/);
    expect(lines[2]).toMatch(/^parley --version +- +- +0\.153 +52\.8 +0\.200 +- +-$/);
    expect(lines[3]).toMatch(/^parley run --mode replay +10,000 +6 +12\.35 +380\.0 +15\.50 +≤ 10 s, ≤ 400 MiB +over$/);
    // Numbers are right-aligned under their header.
    expect(replay.indexOf('10,000') + '10,000'.length).toBe(header.indexOf(' N ') + 2);
    expect(renderResultsTable(rows, false)).not.toContain('\u001b[');
  });

  it('colours the verdict only when asked', () => {
    expect(renderResultsTable(rows, true)).toContain('\u001b[31mover\u001b[39m');
  });
});
