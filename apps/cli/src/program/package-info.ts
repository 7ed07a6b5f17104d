import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The npm package the CLI is published as (the name `parley` belongs to another package). */
export const PARLEY_PACKAGE_NAME = 'parley-eval';
/** Equal to apps/cli/package.json's version and the runner's PARLEY_VERSION (a test holds them together). */
export const PARLEY_PACKAGE_VERSION = '0.1.0';

/**
 * The schemas/ folder of the running parley-eval package: the JSON Schemas `scripts/write-schemas.mjs`
 * writes at build time (its package.json is above this file, in the repository or in node_modules).
 */
export function packageSchemasDir(): string | undefined {
  for (let current = dirname(fileURLToPath(import.meta.url)); dirname(current) !== current; current = dirname(current)) {
    const manifest = join(current, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PARLEY_PACKAGE_NAME) {
      return join(current, 'schemas');
    }
  }
  return undefined;
}
