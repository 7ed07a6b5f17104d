import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRubricMetrics } from '@parley/config';
import { checkRubricLock } from './rubric-lock.js';

const METRIC = `name: booking_slot_consistency
version: 1.0.0
scale: { min: 1, max: 5 }
rubric: Score 5 when the booked slot was offered.
applies_to: conversation
`;

function metricsFolder(text = METRIC): string {
  const folder = join(mkdtempSync(join(tmpdir(), 'parley-lock-')), 'metrics');
  mkdirSync(folder);
  writeFileSync(join(folder, 'booking_slot_consistency.yaml'), text);
  return folder;
}

function check(folder: string) {
  return checkRubricLock(folder, loadRubricMetrics(folder, new Set()).metrics, { write: true });
}

describe('the rubric lock (metrics/.rubric-lock.json)', () => {
  it('records a new metric with its version and rubric hash', () => {
    const folder = metricsFolder();
    const result = check(folder);
    expect(result).toMatchObject({ issues: [], recorded: ['booking_slot_consistency@1.0.0'] });
    const lock = JSON.parse(readFileSync(join(folder, '.rubric-lock.json'), 'utf8'));
    expect(lock).toEqual({ schema_version: 2, metrics: { booking_slot_consistency: { versions: { '1.0.0': expect.stringMatching(/^[0-9a-f]{64}$/) } } } });
    expect(check(folder).recorded).toEqual([]);
  });

  it('is an error at the version line when the rubric changed and the version did not', () => {
    const folder = metricsFolder();
    check(folder);
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), METRIC.replace('was offered.', 'was offered and confirmed.'));
    const result = check(folder);
    expect(result.recorded).toEqual([]);
    expect(result.issues).toEqual([
      expect.objectContaining({
        file: join(folder, 'booking_slot_consistency.yaml'),
        line: 2,
        column: 10,
        message: expect.stringContaining('the rubric of "booking_slot_consistency" changed but its version is still 1.0.0: bump the version'),
      }),
    ]);
  });

  it('accepts the change once the version is bumped, and records the new version', () => {
    const folder = metricsFolder();
    check(folder);
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), METRIC.replace('was offered.', 'was offered and confirmed.').replace('1.0.0', '1.1.0'));
    expect(check(folder)).toMatchObject({ issues: [], recorded: ['booking_slot_consistency@1.1.0'] });
  });

  it('keeps every version: going back to 1.0.0 with another rubric is still an error', () => {
    const folder = metricsFolder();
    check(folder);
    const bumped = METRIC.replace('was offered.', 'was offered and confirmed.').replace('1.0.0', '1.1.0');
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), bumped);
    expect(check(folder).recorded).toEqual(['booking_slot_consistency@1.1.0']);
    const lock = JSON.parse(readFileSync(join(folder, '.rubric-lock.json'), 'utf8'));
    expect(Object.keys(lock.metrics.booking_slot_consistency.versions)).toEqual(['1.0.0', '1.1.0']);
    // Back to 1.0.0, but with the 1.1.0 rubric: 1.0.0's verdicts judged the other one.
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), bumped.replace('1.1.0', '1.0.0'));
    expect(check(folder).issues).toEqual([expect.objectContaining({ line: 2, message: expect.stringContaining('changed but its version is still 1.0.0') })]);
    // Back to 1.0.0 with its own rubric: fine.
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), METRIC);
    expect(check(folder)).toMatchObject({ issues: [], recorded: [] });
  });

  it('reads the first lock format (one version per metric) and writes schema 2 when it records', () => {
    const folder = metricsFolder();
    const sha = check(folder);
    const written = JSON.parse(readFileSync(join(folder, '.rubric-lock.json'), 'utf8'));
    const hash = written.metrics.booking_slot_consistency.versions['1.0.0'];
    expect(sha.issues).toEqual([]);
    writeFileSync(join(folder, '.rubric-lock.json'), JSON.stringify({ schema_version: 1, metrics: { booking_slot_consistency: { version: '1.0.0', rubric_sha256: hash } } }));
    expect(check(folder)).toMatchObject({ issues: [], recorded: [] });
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), METRIC.replace('was offered.', 'was offered and confirmed.').replace('1.0.0', '1.1.0'));
    expect(check(folder).recorded).toEqual(['booking_slot_consistency@1.1.0']);
    expect(JSON.parse(readFileSync(join(folder, '.rubric-lock.json'), 'utf8'))).toEqual({ schema_version: 2, metrics: { booking_slot_consistency: { versions: { '1.0.0': hash, '1.1.0': expect.stringMatching(/^[0-9a-f]{64}$/) } } } });
  });

  it('ignores changes that do not reach the judge (comments, key order)', () => {
    const folder = metricsFolder();
    check(folder);
    writeFileSync(join(folder, 'booking_slot_consistency.yaml'), `# owner: bookings team\n${METRIC}`);
    expect(check(folder)).toMatchObject({ issues: [], recorded: [] });
  });

  it('reports a damaged lock file with its location', () => {
    const folder = metricsFolder();
    writeFileSync(join(folder, '.rubric-lock.json'), '{"schema_version": 1, "metrics": {"x": {"version": "1.0.0"}}}');
    const result = check(folder);
    expect(result.issues[0]).toMatchObject({ file: join(folder, '.rubric-lock.json'), message: expect.stringContaining('delete the file to record every rubric afresh') });
  });
});
