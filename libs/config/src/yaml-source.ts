import type { ConfigIssue } from '@parley/core';
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';

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
  const document = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });

  const positionOf = (offset: number): SourcePosition => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };

  const issues: ConfigIssue[] = [
    ...document.errors.map((error) => ({
      file,
      ...positionOf(error.pos[0]),
      message: describeYamlError(error.code, error.message, keyTextAt(text, error.pos[0])),
      severity: 'error' as const,
    })),
    ...document.warnings.map((warning) => ({
      file,
      ...positionOf(warning.pos[0]),
      message: `YAML: ${warning.message}`,
      severity: 'warning' as const,
    })),
  ];
  const hasErrors = document.errors.length > 0;

  /** Start of a node; undefined for `key:` with nothing written after it (an empty null scalar). */
  const startOf = (node: unknown): SourcePosition | undefined => {
    if (!isNode(node) || !node.range) return undefined;
    if (isScalar(node) && node.range[0] === node.range[1]) return undefined;
    return positionOf(node.range[0]);
  };

  const locate = (path: DataPath, target: LocationTarget = 'value'): SourcePosition => {
    let node: unknown = document.contents;
    let position = startOf(node) ?? START_OF_FILE;
    for (const [index, segment] of path.entries()) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
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

  return { data: hasErrors ? undefined : document.toJS(), issues, locate };
}

function describeYamlError(code: string, message: string, keyText: string): string {
  if (code === 'DUPLICATE_KEY') return `duplicate key${keyText ? ` "${keyText}"` : ''}: keys must be unique`;
  return `invalid YAML: ${message}`;
}

/** The key written at an offset (`name` of `name: value`), for naming a duplicate key. */
function keyTextAt(text: string, offset: number): string {
  const lineEnd = text.indexOf('\n', offset);
  const rest = text.slice(offset, lineEnd < 0 ? undefined : lineEnd);
  return (rest.split(/:(?=\s|$)/)[0] ?? '').trim().replace(/^["']|["']$/g, '');
}
