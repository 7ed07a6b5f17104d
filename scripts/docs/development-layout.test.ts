import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root, workspacePackages } from '../workspace-packages.js';

/** The layout section of docs/development.md: from "Layout (" to the next heading. */
function layoutSection(): string {
  const readme = readFileSync(join(root, 'docs', 'development.md'), 'utf8');
  const start = readme.indexOf('\nLayout (');
  expect(start, 'docs/development.md has a "Layout (" paragraph').toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', start);
  return readme.slice(start, end === -1 ? undefined : end);
}

describe('the layout in docs/development.md', () => {
  const section = layoutSection();
  const folders = workspacePackages().map(({ folder }) => folder);

  it('lists every library under libs/, and no library that is not there', () => {
    const libraries = folders.filter((folder) => folder.startsWith('libs/')).map((folder) => folder.slice('libs/'.length));
    const listed = [...section.matchAll(/^ {2}- `([\w-]+)`:/gm)].map((match) => match[1]);
    expect(listed.toSorted()).toEqual(libraries.toSorted());
  });

  it('names every app and tool by its folder', () => {
    for (const folder of folders.filter((name) => !name.startsWith('libs/'))) expect(section, folder).toContain(`\`${folder}\``);
  });
});
