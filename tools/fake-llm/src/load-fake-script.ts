/**
 * Turns a script (a file, or a value handed over in code or by `PUT /_fake/script`) into a
 * validated `FakeScript`, or a `ConfigError` whose issues say where the problem is.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigIssue } from '@parley/core';
import { LineCounter, parseDocument, isMap, isNode, isPair, isScalar, isSeq, type Document } from 'yaml';
import type { z } from 'zod';
import { FakeScriptSchema, type FakeScript } from './script-schema.js';

/** Where a value sits in its source text, if known. */
type Locate = (path: readonly PropertyKey[], pointAtKey: boolean) => { line: number; column: number } | undefined;

/**
 * Validates a script given as a value. `source` names it in error messages (a file name, or a
 * description such as `PUT /_fake/script`).
 *
 * @throws ConfigError listing every problem.
 */
export function parseFakeScript(value: unknown, source = 'script', locate?: Locate): FakeScript {
  const result = FakeScriptSchema.safeParse(value ?? {});
  if (result.success) return result.data;
  throw new ConfigError(result.error.issues.map((issue) => describeIssue(issue, source, locate)));
}

/**
 * Reads a script file. YAML and JSON are both read by the YAML parser (JSON is YAML 1.2), which
 * also gives every schema problem a line and column.
 *
 * @throws ConfigError naming the file: unreadable, not parseable, or not a valid script.
 */
export function loadFakeScript(path: string): FakeScript {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError({ file: path, message: `cannot read fake-llm script: ${describeError(error)}` });
  }
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (document.errors.length > 0) {
    throw new ConfigError(
      document.errors.map((error) => {
        const position = lineCounter.linePos(error.pos[0]);
        return { file: path, line: position.line, column: position.col, message: error.message };
      }),
    );
  }
  const locate: Locate = (issuePath, pointAtKey) => {
    const offset = findOffset(document, issuePath, pointAtKey);
    if (offset === undefined) return undefined;
    const position = lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  return parseFakeScript(document.toJS(), path, locate);
}

function describeIssue(issue: z.core.$ZodIssue, file: string, locate: Locate | undefined): ConfigIssue {
  const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const path = unknownKeys.length > 0 ? [...issue.path, unknownKeys[0] ?? ''] : issue.path;
  const where = formatPath(path);
  const message = unknownKeys.length > 0 ? `unknown key${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.join(', ')}` : issue.message;
  const position = locate?.(path, unknownKeys.length > 0);
  return { file, ...position, message: where ? `${where}: ${message}` : message };
}

/** `rules[0].when.model`, the way a person would point at the value. */
function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`))
    .join('');
}

/**
 * Offset of the deepest node along `path` that exists: for a key the document lacks (a required
 * field), the problem is shown at the map that should have held it. A bad value is shown at the
 * value; an unknown key (`pointAtKey`) at the key.
 */
function findOffset(document: Document, path: readonly PropertyKey[], pointAtKey: boolean): number | undefined {
  let node: unknown = document.contents;
  let offset = rangeStart(node);
  for (const [index, segment] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      const isLast = index === path.length - 1;
      offset = (isLast && pointAtKey ? undefined : rangeStart(pair.value)) ?? rangeStart(pair.key) ?? offset;
      node = pair.value;
      continue;
    }
    if (isSeq(node) && typeof segment === 'number') {
      const item: unknown = node.items[segment];
      if (item === undefined) break;
      node = item;
      offset = rangeStart(node) ?? offset;
      continue;
    }
    break;
  }
  return offset;
}

function rangeStart(node: unknown): number | undefined {
  return isNode(node) ? node.range?.[0] : undefined;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
