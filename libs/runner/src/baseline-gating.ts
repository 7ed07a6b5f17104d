import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { BaselineFile, LoadedScenario, LoadedSuite } from '@parley/config';
import { ConfigError, DiskFullError, writeFileAtomically, type MetricResult } from '@parley/core';
import { baselineWarnings, gateAgainstBaseline, indexBaseline, readBaselineFile, renderBaselineJson, type RunWarning } from '@parley/gate';
import type { BaselineSource } from '@parley/reports';
import { shellWord } from './shell-word.js';

/** Applied to a scenario's metric results before its status is decided. */
export type MetricGate = (scenario: LoadedScenario, metrics: MetricResult[]) => MetricResult[];

export interface BaselineGating {
  gateMetrics: MetricGate;
  /** For the report's `baseline` section. */
  source: BaselineSource;
  /** Fingerprint and version mismatches. */
  warnings: RunWarning[];
}

export interface BaselineGatingOptions {
  /** Absolute path of the baseline file. */
  file: string;
  /** The file as the user typed it, for messages and the report. */
  fileAsGiven: string;
  /** The suite argument as the user typed it, for the command that regenerates the baseline. */
  suiteAsGiven: string;
  suite: LoadedSuite;
  fingerprint: string;
  parleyVersion: string;
  strict: boolean;
  /** How the person runs Parley (`parley` or `npx parley`), for the regenerate command; `parley` when left out. */
  parleyCommand?: string;
}

/**
 * Reads `--baseline FILE` before anything runs (its problems are exit 2 without a wasted run) and
 * returns the gate every scenario's metrics pass through: the suite's `settings.thresholding`,
 * overridden per expectation by its `thresholding` (metric results come in the order of the
 * scenario's expectations, so they pair by index).
 */
export function prepareBaselineGating(options: BaselineGatingOptions): BaselineGating {
  const regenerateCommand = exportCommand(options.suiteAsGiven, isFolder(options.file) ? baselineIn(options.fileAsGiven) : options.fileAsGiven, options.parleyCommand);
  const suiteName = options.suite.config.suite;
  const baseline = readBaselineFile(options.file, { suite: suiteName, regenerateCommand });
  const index = indexBaseline(baseline);
  const suiteDefault = options.suite.config.settings?.thresholding;
  const warnings = baselineWarnings(baseline, {
    fingerprint: options.fingerprint,
    parleyVersion: options.parleyVersion,
    file: options.fileAsGiven,
    regenerateCommand,
  });
  return {
    gateMetrics: (scenario, metrics) =>
      gateAgainstBaseline({
        scenarioId: scenario.data.id,
        metrics,
        overrides: metrics.map((_, position) => scenario.expectations[position]?.thresholding),
        ...(suiteDefault !== undefined ? { suiteDefault } : {}),
        baseline: index,
        strict: options.strict,
        createCommand: regenerateCommand,
      }),
    source: sourceOf(baseline, options.fileAsGiven, options.fingerprint),
    warnings,
  };
}

/** `parley run <suite> --export-baseline <file>`: the exact command that writes a baseline. */
export function exportCommand(suiteAsGiven: string, fileAsGiven: string, parleyCommand = 'parley'): string {
  return `${parleyCommand} run ${shellWord(suiteAsGiven)} --export-baseline ${shellWord(fileAsGiven)}`;
}

/** Whether `file` is a folder (a suite folder given as the baseline): the baseline goes inside it. */
export function isFolder(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;
}

/** The baseline file docs/gating.md puts in a folder: `<folder>/baseline.json`. */
export function baselineIn(folderAsGiven: string): string {
  return join(folderAsGiven, 'baseline.json');
}

/**
 * Writes a baseline file atomically (temp file, rename), so a crash never leaves half a baseline
 * for the next run to refuse. A path that cannot be written is a ConfigError naming it.
 */
export function writeBaselineFile(file: string, baseline: BaselineFile): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomically(file, renderBaselineJson(baseline));
  } catch (error) {
    if (error instanceof DiskFullError) throw error;
    // A refusal that already names the file (a FIFO, a link to nothing) is said once, not `<file>: … <file>: …`.
    if (error instanceof ConfigError) throw new ConfigError(error.issues.map((issue) => ({ ...issue, message: `cannot write the baseline: ${issue.message}` })));
    throw new ConfigError({ file, message: `cannot write the baseline: ${error instanceof Error ? error.message : String(error)}` });
  }
}

function sourceOf(baseline: BaselineFile, fileAsGiven: string, fingerprint: string): BaselineSource {
  return {
    file: fileAsGiven,
    suite: baseline.suite,
    parley_version: baseline.parley_version,
    created_at: baseline.created_at,
    config_fingerprint: baseline.config_fingerprint,
    fingerprint_matches: baseline.config_fingerprint === fingerprint,
  };
}
