import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manualClock, seededRandom } from '@parley/core';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { captureOutput } from '../test-support/capture-output.js';
import { writeCanaryLog, type CanaryArm } from '../test-support/canary-log.js';
import { REPO_ROOT } from '../test-support/example-copy.js';
import { writeSuite, ZURI_SUITE } from '../test-support/zuri-suite.js';

const NOW = new Date('2026-11-27T12:00:00Z');

async function parley(argv: string[], cwd: string) {
  const output = captureOutput();
  const code = await main(argv, { cwd, env: {}, output, clock: manualClock(NOW), random: seededRandom(1) });
  return { code, stdout: output.stdout(), stderr: output.stderr() };
}

/**
 * A production log and its feedback (writeCanaryLog): `count` conversations on `version`, the first
 * `negative` of them with a 👎 and every fifth of the rest with a 👍; each ended `hoursAgo` before NOW.
 */
function production(arms: CanaryArm[], dir = mkdtempSync(join(tmpdir(), 'parley-canary-'))): { dir: string; logs: string; feedback: string } {
  return { dir, ...writeCanaryLog(dir, arms.map((arm) => ({ positiveEvery: 5, ...arm })), NOW) };
}

describe('parley canary assign', () => {
  it('prints id, tab, arm for each id argument, by the pinned hash rule', async () => {
    const result = await parley(['canary', 'assign', '--rollout', '5', 'conv-1', 'conv-4', 'conv-24'], tmpdir());
    expect(result.code).toBe(0);
    // Buckets 9598, 36 and 331 with the default salt: only conv-1 is at or above 500.
    expect(result.stdout).toBe('conv-1\tstable\nconv-4\tcanary\nconv-24\tcanary\n');
  });

  it('takes another salt', async () => {
    // conv-1 is bucket 4428 with the empty salt.
    expect((await parley(['canary', 'assign', '--rollout', '45', '--salt', '', 'conv-1'], tmpdir())).stdout).toBe('conv-1\tcanary\n');
    expect((await parley(['canary', 'assign', '--rollout', '44.28', '--salt', '', 'conv-1'], tmpdir())).stdout).toBe('conv-1\tstable\n');
  });

  it('exits 2 for a rollout outside 0–100 or finer than 0.01 %', async () => {
    for (const rollout of ['120', 'five', '0.001', '']) {
      const result = await parley(['canary', 'assign', '--rollout', rollout, 'conv-1'], tmpdir());
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--rollout/);
    }
  });

  it('reads 100,000 ids from stdin in the real binary: 5 % ± 0.5 % on the canary, the same ids every time', () => {
    const ids = Array.from({ length: 100_000 }, (_, index) => `wa:2547${String(index).padStart(8, '0')}`);
    const run = () => spawnSync(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'canary', 'assign', '--rollout', '5'], { input: `${ids.join('\n')}\n`, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const first = run();
    expect(first.status).toBe(0);
    const lines = first.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(100_000);
    expect(lines[0]).toMatch(/^wa:254700000000\t(canary|stable)$/);
    const canary = lines.filter((line) => line.endsWith('\tcanary'));
    expect(canary.length).toBeGreaterThanOrEqual(4_500);
    expect(canary.length).toBeLessThanOrEqual(5_500);
    expect(run().stdout).toBe(first.stdout);
  });

  it('refuses stdin that is not UTF-8 with <stdin>:line (an id in another encoding would hash to another arm)', () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'apps/cli/bin/parley.js'), 'canary', 'assign', '--rollout', '5'], { input: Buffer.concat([Buffer.from('conv-1\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]), encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('<stdin>:2:4: the file is not UTF-8 text (byte 0xE9)');
    expect(run.stdout).toBe('');
  });
});

describe('parley canary compare', () => {
  it('rolls back a canary with 30 % 👎 against 5 % (n = 300 / 2,000): exit 1, the table says why', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 300, negative: 90 },
    ]);
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--since', '24h'], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/canary v2 vs stable v1 since 2026-11-26 12:00 UTC/);
    expect(result.stdout).toMatch(/👎 rate\s*│\s*5\.0 % \(100\)\s*│\s*30\.0 % \(90\)\s*│\s*\+25\.0 pts\s*│\s*z 14\.67, p < 0\.0001/);
    expect(result.stdout).toMatch(/verdict: rollback\n {2}👎 rate 30\.0 % on the canary vs 5\.0 % on stable \(\+25\.0 pts, z = 14\.67,\n {4}one-sided p < 0\.0001, below α 0\.05\)/);
    for (const line of result.stdout.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('colours the verdict on a colour terminal and still fits 80 columns; NO_COLOR output has no escapes', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 300, negative: 90 },
    ]);
    const argv = ['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2'];
    const output = { ...captureOutput(), color: true, columns: 120 };
    let printed = '';
    output.out = (text: string) => (printed += text);
    expect(await main(argv, { cwd: dir, env: {}, output, clock: manualClock(NOW), random: seededRandom(1) })).toBe(1);
    expect(printed).toMatch(/verdict: \u001b\[1m\u001b\[31mrollback/);
    for (const line of printed.replace(/\u001b\[[0-9;]*m/g, '').split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect((await parley(argv, dir)).stdout).not.toMatch(/\u001b/);
  });

  it('promotes equal rates with enough canary conversations, and says so in JSON: exit 0', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 300, negative: 15 },
    ]);
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({
      verdict: 'promote',
      conversations: { stable: 2000, canary: 300 },
      feedback: { stable: { negative: 100 }, canary: { negative: 15 }, worse: false },
      power: { rise: 0.05, alpha: 0.05, power: 0.8, minimum_canary: 180 },
      metrics: null,
    });
    expect(json.notes).toContain('judged metrics: not compared (no production scores stored by parley monitor in this project)');
  });

  it('continues with 20 canary conversations: exit 0', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 20, negative: 1 },
    ]);
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ verdict: 'continue', conversations: { canary: 20 } });
  });

  it('keeps only the --since window', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 300, negative: 90, hoursAgo: 48 },
    ]);
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--since', '24h', '--format', 'json'], dir);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json).toMatchObject({ verdict: 'continue', conversations: { stable: 2000, canary: 0 } });
    expect(json.notes).toContain('300 conversations outside --since 24h (or without timestamps) left out');
  });

  it('100 % 👎 in both arms: no power calculation over 100 %, and no promote', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 400, negative: 400 },
      { version: 'v2', count: 400, negative: 400 },
    ]);
    const json = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
    expect(json.code).toBe(0);
    const comparison = JSON.parse(json.stdout);
    expect(comparison.verdict).toBe('continue');
    expect(comparison.power.minimum_canary).toBeNull();
    expect(comparison.reasons[0]).toContain('the stable 👎 rate is 100.0 %: no rise of 5.0 pts fits above it');
    const text = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2'], dir);
    expect(text.stdout).toContain('minimum canary sample: none, as no 5.0-point rise in 👎 rate fits above 100.0 %');
  });

  it('warns about feedback values it does not recognise, naming them and where they are', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 50, negative: 5 },
      { version: 'v2', count: 50, negative: 5 },
    ]);
    writeFileSync(feedback, ['thumbs-down', 7, 'maybe'].map((value, index) => JSON.stringify({ conversation_id: `v2-conv-${index + 10}`, user_feedback: value })).join('\n'));
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: 2 feedback values not recognised \(7 at feedback\.jsonl:2, "maybe" at feedback\.jsonl:3\)/);
    // thumbs-down is thumbs_down: a 👎.
    expect(JSON.parse(result.stdout).feedback.canary.negative).toBe(1);
  });

  it('refuses --since in the future (exit 2)', async () => {
    const { dir, logs, feedback } = production([{ version: 'v1', count: 10, negative: 1 }, { version: 'v2', count: 10, negative: 1 }]);
    const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--since', '2999-01-01'], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--since 2999-01-01 is in the future');
  });

  it('0 vs 0 conversations in the window: says so, and that the arms ratio is assumed', async () => {
    const { dir, logs, feedback } = production([
      { version: 'v1', count: 10, negative: 1, hoursAgo: 48 },
      { version: 'v2', count: 10, negative: 1, hoursAgo: 48 },
    ]);
    const args = ['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--since', '24h'];
    const result = await parley(args, dir);
    expect(result.code).toBe(0);
    const text = result.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('no conversations of either version in the window');
    expect(text).toContain('stable : canary = 19.0 : 1 assumed, as an arm has no conversations');
    const json = JSON.parse((await parley([...args, '--format', 'json'], dir)).stdout);
    expect(json).toMatchObject({ verdict: 'continue', conversations: { stable: 0, canary: 0 }, power: { ratio_assumed: true } });
  });

  it('exits 2 naming the file for a version no conversation has, and file:line for a bad log line', async () => {
    const { dir, logs, feedback } = production([{ version: 'v1', count: 10, negative: 1 }]);
    const typo = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v22'], dir);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/conversations\.jsonl.*--canary v22: no conversation in the log has prompt_version "v22" \(versions seen: v1\)/);

    writeFileSync(logs, `${JSON.stringify({ conversation_id: 'a', prompt_version: 'v1', turns: [{ role: 'user', content: 'hi' }] })}\n{"conversation_id": "b", "turns": []}\n`);
    const bad = await parley(['canary', 'compare', '--logs', logs, '--stable', 'v1', '--canary', 'v2'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/conversations\.jsonl:2:1/);
  });

  describe('judged metrics from the scores parley monitor stored', () => {
    /**
     * The suite's monitor store with a `service_quality` score (0–1) for every conversation of the
     * arms: normal around `means[version]` (sd 0.15, clamped, seeded), plus a pass/fail `resolved`
     * metric passed by 80 % of each arm and one judge error that must be left out.
     */
    async function storeScores(dir: string, arms: Array<{ version: string; count: number }>, means: Record<string, number>): Promise<void> {
      const { openMonitorStore } = await import('@parley/store');
      const random = seededRandom(7);
      const normal = () => Math.sqrt(-2 * Math.log(1 - random.next())) * Math.cos(2 * Math.PI * random.next());
      const store = openMonitorStore(join(dir, '.parley', 'parley.db'));
      try {
        for (const arm of arms) {
          for (let index = 0; index < arm.count; index += 1) {
            const score = Math.min(1, Math.max(0, means[arm.version]! + 0.15 * normal()));
            const common = { metric_version: '1.0.0', threshold: 0.6, reason: 'judged', judge_model: 'gpt-4.1@2025-04-14' };
            store.save({
              suite: 'zuri_booking',
              conversation_id: `${arm.version}-conv-${index}`,
              ended_at: new Date(NOW.getTime() - 3_600_000).toISOString(),
              judged_at: NOW.toISOString(),
              tenant: 'zuri_spa',
              prompt_version: arm.version,
              status: index === 0 ? 'error' : 'judged',
              cost_usd: 0.001,
              scores: [
                { ...common, metric: 'service_quality', score: index === 0 ? null : score, passed: score >= 0.6, error: index === 0 },
                { ...common, metric: 'resolved', score: null, threshold: null, passed: index % 5 !== 0, error: false },
              ],
            });
          }
        }
      } finally {
        store.close();
      }
    }

    const arms = [
      { version: 'v1', count: 2000, negative: 100 },
      { version: 'v2', count: 300, negative: 15 },
    ];

    it('rolls back when a metric\'s canary mean is significantly lower, with equal 👎 rates: exit 1, interval in text and JSON', async () => {
      const dir = writeSuite(ZURI_SUITE);
      const { logs, feedback } = production(arms, dir);
      await storeScores(dir, arms, { v1: 0.8, v2: 0.7 });
      const argv = ['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2'];
      const json = await parley([...argv, '--format', 'json'], dir);
      expect(json.code).toBe(1);
      const parsed = JSON.parse(json.stdout);
      expect(parsed.verdict).toBe('rollback');
      expect(parsed.feedback.worse).toBe(false);
      const quality = parsed.metrics.find((metric: { metric: string }) => metric.metric === 'service_quality');
      // The error of each arm's first conversation is left out.
      expect(quality).toMatchObject({ stable: { scored: 1999 }, canary: { scored: 299 }, worse: true });
      expect(quality.difference).toBeCloseTo(-0.1, 1);
      expect(quality.interval.high).toBeLessThan(0);
      expect(quality.interval.low).toBeLessThan(quality.difference);
      // A pass/fail metric compares pass rates: 80 % on both arms, not worse.
      expect(parsed.metrics.find((metric: { metric: string }) => metric.metric === 'resolved')).toMatchObject({ stable: { scored: 2000, mean: 0.8 }, canary: { scored: 300, mean: 0.8 }, worse: false });
      expect(parsed.reasons[0]).toMatch(/^service_quality mean 0\.\d{3} on the canary vs 0\.\d{3} on stable .*wholly below 0/);
      expect(parsed.notes.join('\n')).not.toMatch(/judged metrics/);

      const text = await parley(argv, dir);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(/service_quality\s*│\s*0\.\d{3} \(1999\)\s*│\s*0\.\d{3} \(299\)\s*│\s*−0\.\d{3}\s*│\s*−0\.\d{3}…−0\.\d{3}\s*│/);
      expect(text.stdout).toMatch(/│ test, 95 % CI\s*│/);
      expect(text.stdout).toMatch(/verdict: rollback\n {2}service_quality mean/);
      for (const line of text.stdout.split('\n')) expect([...line].length, text.stdout).toBeLessThanOrEqual(80);
    });

    it('promotes when the metrics hold: the interval straddles 0, exit 0', async () => {
      const dir = writeSuite(ZURI_SUITE);
      const { logs, feedback } = production(arms, dir);
      await storeScores(dir, arms, { v1: 0.8, v2: 0.8 });
      const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
      expect(result.code).toBe(0);
      const parsed = JSON.parse(result.stdout);
      expect(parsed.verdict).toBe('promote');
      const quality = parsed.metrics.find((metric: { metric: string }) => metric.metric === 'service_quality');
      expect(quality.interval.low).toBeLessThan(0);
      expect(quality.interval.high).toBeGreaterThan(0);
      expect(parsed.reasons[0]).toMatch(/nor drop in a judged metric/);
    });

    it('says so when the store holds no scores of the suite for these conversations', async () => {
      const dir = writeSuite(ZURI_SUITE);
      const { logs, feedback } = production(arms, dir);
      await storeScores(dir, [{ version: 'v9', count: 3 }], { v9: 0.5 });
      const result = await parley(['canary', 'compare', '--logs', logs, '--feedback', feedback, '--stable', 'v1', '--canary', 'v2', '--format', 'json'], dir);
      expect(result.code).toBe(0);
      const parsed = JSON.parse(result.stdout);
      expect(parsed.metrics).toEqual([]);
      expect(parsed.notes).toContain('judged metrics: parley monitor stored no scores of suite zuri_booking for these conversations');
    });
  });
});
