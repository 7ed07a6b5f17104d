import { readFileSync } from 'node:fs';
import { ConfigError } from '@parley/core';
import { cleanName } from './person-names.js';

/**
 * The names of an identities file (`redaction.identities`): one name a line; blank lines and
 * lines starting with `#` are skipped. A line that cannot be a person's name (digits, symbols) is
 * a ConfigError with its line, because silently skipping it would leave that person unmasked.
 */
export function readIdentitiesFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError({ file: path, message: `cannot read the identities file: ${(error as Error).message}` });
  }
  return parseIdentities(text, path);
}

export function parseIdentities(text: string, file: string): string[] {
  const names: string[] = [];
  const issues: Array<{ file: string; line: number; column: number; message: string }> = [];
  for (const [index, raw] of text.replace(/^\uFEFF/, '').split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const name = cleanName(line);
    if (name === undefined) {
      issues.push({ file, line: index + 1, column: raw.indexOf(line) + 1, message: `"${line}" is not a name: use letters, spaces, hyphens and apostrophes` });
      continue;
    }
    names.push(name);
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return names;
}
