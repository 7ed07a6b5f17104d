import type { Gate, Status } from '@parley/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXIT_CONFIG_ERROR, EXIT_INTERRUPTED, exitCodeFor, failsGate, runStatus, type GatedResult } from './exit-code.js';

const STATUSES: Status[] = ['pass', 'fail', 'warn', 'flaky', 'error', 'skipped'];

const blocking = (status: Status): GatedResult => ({ status, gate: 'blocking' });
const advisory = (status: Status): GatedResult => ({ status, gate: 'advisory' });

// One row per case of docs/gating.md's statuses and exit codes, with and without --strict.
const exitRows: Array<{ name: string; results: GatedResult[]; normal: 0 | 1; strict: 0 | 1 }> = [
  { name: 'empty run', results: [], normal: 0, strict: 0 },
  { name: 'all blocking pass', results: [blocking('pass'), blocking('pass')], normal: 0, strict: 0 },
  { name: 'blocking fail', results: [blocking('pass'), blocking('fail')], normal: 1, strict: 1 },
  { name: 'blocking error', results: [blocking('error')], normal: 1, strict: 1 },
  { name: 'blocking warn', results: [blocking('pass'), blocking('warn')], normal: 0, strict: 1 },
  { name: 'blocking flaky', results: [blocking('flaky')], normal: 0, strict: 1 },
  { name: 'blocking skipped', results: [blocking('skipped')], normal: 0, strict: 0 },
  { name: 'advisory fail', results: [blocking('pass'), advisory('fail')], normal: 0, strict: 0 },
  { name: 'advisory error', results: [advisory('error')], normal: 0, strict: 0 },
  { name: 'advisory warn and flaky', results: [advisory('warn'), advisory('flaky')], normal: 0, strict: 0 },
  { name: 'advisory fail next to blocking fail', results: [advisory('fail'), blocking('fail')], normal: 1, strict: 1 },
];

describe('exitCodeFor', () => {
  it.each(exitRows)('$name → $normal (strict $strict)', ({ results, normal, strict }) => {
    expect(exitCodeFor(results, { strict: false })).toBe(normal);
    expect(exitCodeFor(results, { strict: true })).toBe(strict);
  });

  it('keeps the configuration and interruption codes distinct from the gate codes', () => {
    expect(EXIT_CONFIG_ERROR).toBe(2);
    expect(EXIT_INTERRUPTED).toBe(130);
  });

  it('is 1 exactly when some single scenario fails the gate', () => {
    const result = fc.record({ status: fc.constantFrom(...STATUSES), gate: fc.constantFrom<Gate>('blocking', 'advisory') });
    fc.assert(
      fc.property(fc.array(result), fc.boolean(), (results, strict) => {
        const anyFails = results.some((one) => exitCodeFor([one], { strict }) === 1);
        expect(exitCodeFor(results, { strict })).toBe(anyFails ? 1 : 0);
      }),
    );
  });

  it('agrees with the run status', () => {
    const result = fc.record({ status: fc.constantFrom(...STATUSES), gate: fc.constantFrom<Gate>('blocking', 'advisory') });
    fc.assert(
      fc.property(fc.array(result), fc.boolean(), (results, strict) => {
        const blockingStatuses: Status[] = strict ? ['error', 'fail', 'flaky', 'warn'] : ['error', 'fail'];
        expect(exitCodeFor(results, { strict })).toBe(blockingStatuses.includes(runStatus(results)) ? 1 : 0);
      }),
    );
  });
});

describe('run warnings', () => {
  const fingerprint = { kind: 'baseline_fingerprint_mismatch', message: 'another configuration', fails_under_strict: true };
  const version = { kind: 'baseline_version_mismatch', message: 'another version', fails_under_strict: false };

  it('fail the gate only under --strict and only when they say so', () => {
    const results = [blocking('pass')];
    expect(exitCodeFor(results, { strict: false, warnings: [fingerprint, version] })).toBe(0);
    expect(exitCodeFor(results, { strict: true, warnings: [fingerprint] })).toBe(1);
    expect(exitCodeFor(results, { strict: true, warnings: [version] })).toBe(0);
  });

  it('make a passing run warn when --strict would fail on them, so status and exit code agree', () => {
    expect(runStatus([blocking('pass')], [fingerprint])).toBe('warn');
    expect(runStatus([blocking('pass')], [version])).toBe('pass');
    expect(runStatus([blocking('fail')], [fingerprint])).toBe('fail');
  });
});

describe('failsGate', () => {
  const rows: Array<{ status: Status; normal: boolean; strict: boolean }> = [
    { status: 'pass', normal: false, strict: false },
    { status: 'fail', normal: true, strict: true },
    { status: 'warn', normal: false, strict: true },
    { status: 'flaky', normal: false, strict: true },
    { status: 'error', normal: true, strict: true },
    { status: 'skipped', normal: false, strict: false },
  ];
  it.each(rows)('blocking $status', ({ status, normal, strict }) => {
    expect(failsGate(blocking(status), { strict: false })).toBe(normal);
    expect(failsGate(blocking(status), { strict: true })).toBe(strict);
  });
  it.each(STATUSES)('advisory %s never fails the gate', (status) => {
    expect(failsGate(advisory(status), { strict: true })).toBe(false);
  });
});

describe('runStatus', () => {
  const rows: Array<{ name: string; results: GatedResult[]; expected: Status }> = [
    { name: 'nothing ran', results: [], expected: 'skipped' },
    { name: 'all skipped', results: [blocking('skipped'), advisory('skipped')], expected: 'skipped' },
    { name: 'all pass', results: [blocking('pass'), blocking('pass')], expected: 'pass' },
    { name: 'skipped next to pass', results: [blocking('skipped'), blocking('pass')], expected: 'pass' },
    { name: 'warn over pass', results: [blocking('pass'), blocking('warn')], expected: 'warn' },
    { name: 'flaky over warn', results: [blocking('warn'), blocking('flaky')], expected: 'flaky' },
    { name: 'fail over flaky', results: [blocking('flaky'), blocking('fail')], expected: 'fail' },
    { name: 'error over fail', results: [blocking('fail'), blocking('error'), blocking('pass')], expected: 'error' },
    { name: 'advisory failures do not count', results: [blocking('pass'), advisory('error')], expected: 'pass' },
    { name: 'advisory-only smoke run', results: [advisory('fail')], expected: 'pass' },
  ];
  it.each(rows)('$name → $expected', ({ results, expected }) => {
    expect(runStatus(results)).toBe(expected);
  });
});
