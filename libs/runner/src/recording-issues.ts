import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedSuite } from '@parley/config';
import { isConfigError, scenarioOfCase, type ConfigIssue } from '@parley/core';
import { readRecording } from '@parley/providers';
import { recordingsDir } from './suite-paths.js';

/**
 * What a replay of the suite's scenarios would refuse in their recordings: for each scenario, its
 * `recordings/<id>.jsonl` and the recordings of its `--agent` comparison cases (`<id>@<agent>.jsonl`),
 * read and checked as a replay reads them (a damaged line, bytes that are not UTF-8, a FIFO).
 * One issue per damaged file, at its line and column; a scenario without a recording is no issue
 * (a replay reports it as a miss that names the command recording it).
 */
export function recordingIssues(suite: LoadedSuite): ConfigIssue[] {
  const folder = recordingsDir(suite);
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return [];
  }
  const ids = new Set(suite.scenarios.map((scenario) => scenario.data.id));
  const recordingOf = (name: string): boolean => {
    const stem = name.slice(0, -'.jsonl'.length);
    return ids.has(stem) || ids.has(scenarioOfCase(stem));
  };
  return names.filter(recordingOf).flatMap((name) => {
    try {
      readRecording(join(folder, name));
      return [];
    } catch (error) {
      if (isConfigError(error)) return error.issues;
      throw error;
    }
  });
}
