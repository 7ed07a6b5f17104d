import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages } from '../workspace-packages.js';

const page = readFileSync(join(root, 'docs/architecture.md'), 'utf8');

/** Every `code span` of the page that names a path in the repository (a folder of ours or a file with an extension). */
function namedPaths(): string[] {
  const spans = [...page.matchAll(/`([^`\s]+)`/g)].map((match) => match[1] ?? '');
  return [...new Set(spans.filter((span) => /^(apps|libs|tools|scripts|docs|examples)\//.test(span) || /^[\w.-]+\.(mjs|json|ts|md)$/.test(span)))];
}

describe('docs/architecture.md', () => {
  it('names paths, and each of them exists', () => {
    const paths = namedPaths();
    expect(paths.length).toBeGreaterThan(20);
    expect(paths.filter((path) => !existsSync(join(root, path.replace(/\/$/, ''))))).toEqual([]);
  });

  it("puts every package in the layer its package.json's type: tag says", () => {
    const rows = page.split('\n').filter((line) => /^\| `type:\w+` \|/.test(line));
    for (const { folder, manifest } of workspacePackages()) {
      const type = manifest.nx?.tags?.find((tag) => tag.startsWith('type:'));
      const row = rows.find((line) => line.includes(`\`${folder}\``));
      expect(row, folder).toBeDefined();
      expect(row?.startsWith(`| \`${type}\` |`), `${folder} is ${type}`).toBe(true);
    }
  });
});
