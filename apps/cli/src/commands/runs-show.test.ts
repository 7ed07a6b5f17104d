import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample } from '../test-support/example-copy.js';
import { parleyAsync } from '../test-support/parley-process.js';

describe('parley runs show (the binary, on the booking example replayed)', () => {
  it('masks names and phone numbers as the report does, and withholds every reason of a metadata_only scenario, in text and in --format json', async () => {
    const suite = copyExample('booking');
    // A reason that quotes the customer's name ("forbidden "Grace" found"), and a metadata_only
    // scenario whose judges' reasons are stored.
    const english = join(suite, 'scenarios', 'spa_booking_english_happy.yaml');
    writeFileSync(english, `${readFileSync(english, 'utf8').trimEnd()}\n  - metric: content_signals\n    forbidden: ["Grace"]\n`);
    const swahili = join(suite, 'scenarios', 'spa_booking_swahili_happy.yaml');
    writeFileSync(swahili, readFileSync(swahili, 'utf8').replace(/^(id: .*)$/m, '$1\nmetadata_only: true'));
    const run = await parleyAsync(['run', '.', '--out', 'out'], { cwd: suite });
    expect([0, 1], run.stderr).toContain(run.status);
    const report = JSON.parse(readFileSync(join(suite, 'out', 'report.json'), 'utf8')) as { run_id: string; results: Array<{ scenario_id: string; metadata_only: boolean; metrics: Array<{ reason: string }> }> };
    const secretive = report.results.find((result) => result.scenario_id === 'spa_booking_swahili_happy')!;
    expect(secretive.metadata_only).toBe(true);

    const text = await parleyAsync(['runs', 'show', report.run_id], { cwd: suite });
    const json = await parleyAsync(['runs', 'show', report.run_id, '--format', 'json'], { cwd: suite });
    for (const shown of [text, json]) {
      expect(shown.status, shown.stderr).toBe(0);
      expect(shown.stdout).not.toMatch(/Grace|Achieng|118 904/);
    }
    expect(text.stdout).toMatch(/spa_booking_english_happy +fail +content_signals: forbidden "<name>" found/);
    const shown = JSON.parse(json.stdout) as { results: Array<{ scenario_id: string; reason: string; metrics: Array<{ reason: string; details?: Record<string, unknown> }> }> };
    const withheld = shown.results.find((result) => result.scenario_id === 'spa_booking_swahili_happy')!;
    expect(withheld.metrics.map((metric) => metric.reason)).toEqual(withheld.metrics.map(() => '[metadata_only: content withheld]'));
    expect(JSON.stringify(withheld)).not.toMatch(/message_scores|overall_feedback/);
  });
});
