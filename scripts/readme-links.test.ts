import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

describe('the README points somewhere real', () => {
  it('links every page of docs/', () => {
    const pages = readdirSync(join(REPO_ROOT, 'docs')).filter((name) => name.endsWith('.md'));
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages) expect(README, page).toContain(`](docs/${page}`);
  });

  it('every relative link leads to a file of this repository', () => {
    const targets = [...README.matchAll(/\]\(((?!https?:|#)[^)#\s]+)/g)].map((match) => match[1] as string);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) expect(existsSync(join(REPO_ROOT, target)), target).toBe(true);
  });

  it('claims no published package or Action', () => {
    expect(README).not.toMatch(/is published as the npm package/);
    expect(README).not.toMatch(/uses: parley-eval\/parley@/);
    expect(README).not.toMatch(/unpkg\.com/);
  });
});
