import { readFileSync } from 'node:fs';
import { COMMON_EXPECTATION_KEYS } from './expectation-schema.js';
import { parseYamlSource, type DataPath, type YamlSource } from './yaml-source.js';

/** A place in a file, 1-based. */
export interface FilePosition {
  file: string;
  line: number;
  column: number;
}

/** What to find: the n-th metric result of one scenario (`metrics[]` of its result, in order). */
export interface ExpectationQuery {
  scenarioFile: string;
  suiteFile: string;
  agent: string;
  /** The scenario's metric results, in the order the run reported them. */
  metrics: readonly string[];
  /** Index into `metrics` of the result to locate. */
  index: number;
}

const COMMON_KEYS = new Set<string>(COMMON_EXPECTATION_KEYS);

/**
 * Finds where the expectation behind a metric result is written, for CI annotations
 * (`::error file=…,line=…`). A scenario's results follow its expectations in order: the suite's
 * `defaults.expect`, then the agent's `expect` (both in parley.yaml), then the scenario's own (see
 * `mergeExpectations`), so the k-th result of a metric is the k-th expectation of that metric
 * across those levels. A `fluency_<lang>` attached by `language` points at the `language` line;
 * anything else at the scenario's `id`.
 *
 * Files are parsed with positions only here, when a result needs locating; each file once.
 */
export function expectationLocator(read: (file: string) => string = (file) => readFileSync(file, 'utf8')): (query: ExpectationQuery) => FilePosition {
  const sources = new Map<string, YamlSource | null>();
  const sourceOf = (file: string): YamlSource | null => {
    if (!sources.has(file)) {
      try {
        sources.set(file, parseYamlSource(read(file), file));
      } catch {
        sources.set(file, null);
      }
    }
    return sources.get(file) ?? null;
  };

  return (query) => {
    const metric = query.metrics[query.index];
    const scenario = sourceOf(query.scenarioFile);
    const at = (file: string, source: YamlSource | null, path: DataPath): FilePosition => ({ file, ...(source?.locate(path) ?? { line: 1, column: 1 }) });
    if (metric === undefined) return at(query.scenarioFile, scenario, ['id']);
    const occurrence = query.metrics.slice(0, query.index).filter((name) => name === metric).length;
    const suite = sourceOf(query.suiteFile);
    const levels: Array<{ file: string; source: YamlSource | null; path: DataPath }> = [
      { file: query.suiteFile, source: suite, path: ['defaults', 'expect'] },
      { file: query.suiteFile, source: suite, path: ['agents', query.agent, 'expect'] },
      { file: query.scenarioFile, source: scenario, path: ['expect'] },
    ];
    let seen = 0;
    let last: FilePosition | undefined;
    for (const level of levels) {
      const entries = listAt(level.source?.data, level.path);
      for (const [index, entry] of entries.entries()) {
        if (!isRecord(entry) || entry['metric'] !== metric) continue;
        const location = at(level.file, level.source, [...level.path, index]);
        // An entry of only common keys tunes the broader ones of its metric: it adds no result of its own.
        const tunes = seen > 0 && Object.keys(entry).every((key) => COMMON_KEYS.has(key));
        if (tunes) {
          last = location;
          continue;
        }
        if (seen === occurrence) return location;
        seen += 1;
        last = location;
      }
    }
    if (last !== undefined) return last;
    if (metric.startsWith('fluency_')) return at(query.scenarioFile, scenario, ['language']);
    return at(query.scenarioFile, scenario, ['id']);
  };
}

function listAt(data: unknown, path: DataPath): unknown[] {
  let node: unknown = data;
  for (const segment of path) {
    if (!isRecord(node)) return [];
    node = node[String(segment)];
  }
  return Array.isArray(node) ? node : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
