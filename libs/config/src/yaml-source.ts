import type { ConfigIssue } from '@parley/core';
import { isAlias, isMap, isNode, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Pair, type YAMLMap } from 'yaml';
import { NESTING_MESSAGE } from './nesting-depth.js';

/** A path into parsed data: mapping keys and list indexes, e.g. `['expect', 2, 'threshold']`. */
export type DataPath = readonly (string | number)[];

/** A 1-based line and column in a source text. */
export interface SourcePosition {
  line: number;
  column: number;
}

/**
 * What to point at for a path: the value (default) or, for a mapping entry, its key. Unknown keys
 * point at the key, since the value is not what is wrong.
 */
export type LocationTarget = 'value' | 'key';

/** A YAML (or JSON) text parsed with its syntax tree kept, so any path can be traced to its line. */
export interface YamlSource {
  /** The document as plain data; undefined when the text has syntax errors. */
  data: unknown;
  /** Syntax errors and duplicate keys, each with its position. */
  issues: ConfigIssue[];
  /**
   * Where a path is written. A path that does not exist (a missing key) points at the deepest part
   * that does, typically the mapping the key is missing from.
   */
  locate(path: DataPath, target?: LocationTarget): SourcePosition;
}

const START_OF_FILE: SourcePosition = { line: 1, column: 1 };

/**
 * Parse YAML text with positions. Slower than a plain parse (it builds the whole syntax tree), so
 * loaders parse fast first and come here only for files that have a problem to locate.
 */
export function parseYamlSource(text: string, file: string): YamlSource {
  const lineCounter = new LineCounter();
  // `yaml`'s own duplicate-key check compares each key with every earlier one (quadratic: 20,000
  // keys took minutes); duplicates are found below with one set per mapping instead.
  let document: Document.Parsed;
  try {
    // Merge keys (`<<: *base`) are applied, as editors' YAML support (yaml-language-server) does.
    document = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false, merge: true });
  } catch (error) {
    // `yaml`'s parser recurses once per level of block nesting: thousands of levels overflow it.
    if (!(error instanceof RangeError)) throw error;
    return unparsable({ file, line: deepestLine(text), column: 1, message: NESTING_MESSAGE, severity: 'error' });
  }

  const positionOf = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  // A stack overflow inside `yaml` may be recorded once per level it unwinds through (Node 24's
  // larger stack gets further than Node 22's): one nesting problem is reported once, at its first place.
  const errors = document.errors.filter(
    (error, index, all) => !isStackOverflow(error.message) || all.findIndex((other) => isStackOverflow(other.message)) === index,
  );
  const issues: ConfigIssue[] = [
    ...errors.map((error) => ({
      file,
      ...positionOf(error.pos[0]),
      message: describeYamlError(error.code, error.message, keyTextAt(text, error.pos[0])),
      severity: 'error' as const,
    })),
    ...duplicateKeyOffsets(document).map((offset) => ({
      file,
      ...positionOf(offset),
      message: describeYamlError('DUPLICATE_KEY', '', keyTextAt(text, offset)),
      severity: 'error' as const,
    })),
    ...document.warnings.map((warning) => ({
      file,
      ...positionOf(warning.pos[0]),
      message: `YAML: ${warning.message}`,
      severity: 'warning' as const,
    })),
  ];
  let data: unknown;
  if (!issues.some((issue) => issue.severity === 'error')) {
    try {
      data = document.toJS();
    } catch (error) {
      const problem = aliasProblem(document, error);
      issues.push({ file, ...(problem.offset === undefined ? START_OF_FILE : positionOf(problem.offset)), message: problem.message, severity: 'error' });
    }
  }

  /** Start of a node; undefined for `key:` with nothing written after it (an empty null scalar). */
  const startOf = (node: unknown): SourcePosition | undefined => {
    if (!isNode(node) || !node.range) return undefined;
    if (isScalar(node) && node.range[0] === node.range[1]) return undefined;
    return positionOf(node.range[0]);
  };

  // Each mapping's entries by key, built on first use: locating every key of a mapping with
  // thousands of them must not search the mapping once per key.
  const pairIndexes = new WeakMap<YAMLMap, Map<string, Pair>>();
  const pairsByKey = (map: YAMLMap): Map<string, Pair> => {
    let index = pairIndexes.get(map);
    if (!index) {
      index = new Map();
      pairIndexes.set(map, index); // before the merge sources are read: a cycle finds this one
      for (const item of map.items) {
        if (!isScalar(item.key) || isMergeKey(item.key.value)) continue;
        const key = String(item.key.value);
        if (!index.has(key)) index.set(key, item);
      }
      // Keys a merge key brings in (`<<: *base` or `<<: [*a, *b]`) are located where the anchored
      // mapping writes them; keys written in the mapping itself win, as in the merged data.
      for (const item of map.items) {
        if (!isScalar(item.key) || !isMergeKey(item.key.value)) continue;
        const sources = isSeq(item.value) ? item.value.items : [item.value];
        for (const source of sources) {
          const merged = isAlias(source) ? source.resolve(document) : source;
          if (!isMap(merged)) continue;
          for (const [key, pair] of pairsByKey(merged)) if (!index.has(key)) index.set(key, pair);
        }
      }
    }
    return index;
  };

  const locate = (path: DataPath, target: LocationTarget = 'value'): SourcePosition => {
    let node: unknown = document.contents;
    let position = startOf(node) ?? START_OF_FILE;
    for (const [index, segment] of path.entries()) {
      if (isMap(node)) {
        const pair = pairsByKey(node).get(String(segment));
        if (!pair) return position;
        const keyPosition = startOf(pair.key);
        if (index === path.length - 1 && target === 'key') return keyPosition ?? position;
        node = pair.value;
        // `key:` with nothing after it has no value node; the key is the best place to point at.
        position = startOf(node) ?? keyPosition ?? position;
      } else if (isSeq(node) && typeof segment === 'number' && segment < node.items.length) {
        node = node.items[segment];
        position = startOf(node) ?? position;
      } else {
        return position;
      }
    }
    return position;
  };

  return { data, issues, locate };
}

/** `<<`: a plain string, or the symbol `yaml` makes of it when merge keys are applied. */
function isMergeKey(value: unknown): boolean {
  return value === '<<' || (typeof value === 'symbol' && value.description === '<<');
}

function isStackOverflow(message: string): boolean {
  return message.includes('Maximum call stack size exceeded');
}

function describeYamlError(code: string, message: string, keyText: string): string {
  if (code === 'DUPLICATE_KEY') return `duplicate key${keyText ? ` "${keyText}"` : ''}: keys must be unique`;
  if (isStackOverflow(message)) return NESTING_MESSAGE;
  return `invalid YAML: ${message}`;
}

/** The source of a text `yaml` could not parse at all: one issue, and every path at its place. */
function unparsable(issue: ConfigIssue): YamlSource {
  return { data: undefined, issues: [issue], locate: () => ({ line: issue.line ?? 1, column: issue.column ?? 1 }) };
}

/** The line that opens the most levels of nesting (flow brackets, `- ` entries, indentation). */
function deepestLine(text: string): number {
  let deepest = { line: 1, levels: -1 };
  for (const [index, line] of text.split('\n').entries()) {
    const indentation = line.length - line.trimStart().length;
    const levels = indentation / 2 + (line.match(/[[{]|- /g)?.length ?? 0);
    if (levels > deepest.levels) deepest = { line: index + 1, levels };
  }
  return deepest.line;
}

/**
 * Where each key that repeats an earlier key of its mapping starts. Scalar keys are compared by
 * value, as YAML does (`1` and `"1"` differ); the merge key `<<` may repeat. Walks without
 * recursion, so a deeply nested document cannot overflow the stack here.
 */
function duplicateKeyOffsets(document: Document): number[] {
  const offsets: number[] = [];
  const pending: unknown[] = [document.contents];
  while (pending.length > 0) {
    const node = pending.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (isScalar(pair.key) && !isMergeKey(pair.key.value)) {
          if (seen.has(pair.key.value) && pair.key.range) offsets.push(pair.key.range[0]);
          seen.add(pair.key.value);
        }
        pending.push(pair.key, pair.value);
      }
    } else if (isSeq(node)) {
      pending.push(...node.items);
    }
  }
  return offsets.sort((left, right) => left - right);
}

/**
 * What went wrong turning a document with aliases into data (the only errors `toJS` throws): an
 * alias with no anchor before it, or so many aliases that expanding them would exhaust memory.
 */
function aliasProblem(document: Document, error: unknown): { message: string; offset?: number } {
  const reason = error instanceof Error ? error.message : String(error);
  const anchors = new Set<string>();
  let undefinedAlias: { source: string; offset?: number } | undefined;
  let firstAlias: number | undefined;
  visit(document, (_key, node) => {
    if (isAlias(node)) {
      firstAlias ??= node.range?.[0];
      if (!anchors.has(node.source)) {
        undefinedAlias = { source: node.source, ...(node.range ? { offset: node.range[0] } : {}) };
        return visit.BREAK;
      }
    } else if (isNode(node) && node.anchor) anchors.add(node.anchor);
    return undefined;
  });
  if (undefinedAlias) {
    return { message: `undefined alias "*${undefinedAlias.source}": no anchor "&${undefinedAlias.source}" is written before it`, ...(undefinedAlias.offset !== undefined ? { offset: undefinedAlias.offset } : {}) };
  }
  if (reason.includes('Excessive alias count')) {
    return {
      message: 'too many aliases: expanding them would make the file enormous (an alias bomb); write the values out instead',
      ...(firstAlias !== undefined ? { offset: firstAlias } : {}),
    };
  }
  return { message: `invalid YAML: ${reason}`, ...(firstAlias !== undefined ? { offset: firstAlias } : {}) };
}

/** The key written at an offset (`name` of `name: value`), for naming a duplicate key. */
function keyTextAt(text: string, offset: number): string {
  const lineEnd = text.indexOf('\n', offset);
  const rest = text.slice(offset, lineEnd < 0 ? undefined : lineEnd);
  return (rest.split(/:(?=\s|$)/)[0] ?? '').trim().replace(/^["']|["']$/g, '');
}
