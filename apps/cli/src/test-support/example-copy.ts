import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** A private copy of an example suite (with its recordings) in a temp folder, safe to edit. */
export function copyExample(name: 'booking' | 'municipal' | 'service-agents' | 'variants'): string {
  const directory = mkdtempSync(join(tmpdir(), `parley-${name}-`));
  cpSync(join(REPO_ROOT, 'examples', name), directory, { recursive: true });
  return directory;
}
