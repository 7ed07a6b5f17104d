import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const DOC_PAGES = readdirSync(join(REPO_ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(REPO_ROOT, 'docs', name));

/** The text outside fenced code blocks (a `# comment` in a shell block is no heading). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

/** Every relative link of a Markdown file that leads nowhere: a missing file, or a missing heading of a Markdown file. */
function brokenLinks(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...prose(text).matchAll(/\]\(((?!https?:|mailto:)[^)\s]*)\)/g)].flatMap(([, link = '']) => {
    const [path = '', anchor] = link.split('#');
    const target = path === '' ? file : join(dirname(file), path);
    if (!existsSync(target)) return [`${relative(REPO_ROOT, file)}: ${link}: no such file`];
    if (anchor !== undefined && target.endsWith('.md') && !anchors(readFileSync(target, 'utf8')).has(anchor))
      return [`${relative(REPO_ROOT, file)}: ${link}: no such heading`];
    return [];
  });
}

describe('the README is a front door', () => {
  it('links every page of docs/', () => {
    expect(DOC_PAGES.length).toBeGreaterThan(5);
    for (const page of DOC_PAGES) expect(README, page).toContain(`](docs/${relative(join(REPO_ROOT, 'docs'), page)}`);
  });

  it('says what Parley is, how to install it, the first green run, this repository’s quick start and where to read on, in that order, and nothing more', () => {
    const headings = [...prose(README).matchAll(/^## (.+)$/gm)].map((match) => match[1]);
    const where = 'the README is a front door: a feature is described in its docs/ page (the "Read on" table names them), not in a README section';
    expect(headings, where).toEqual(['Install', 'Your first green run', 'Quick start (this repository)', 'Read on']);
    expect(README.split('\n').length, where).toBeLessThan(120);
  });

  it('claims no published package or Action', () => {
    for (const file of [join(REPO_ROOT, 'README.md'), ...DOC_PAGES]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).not.toMatch(/is published as the npm package/);
      expect(text, file).not.toMatch(/uses: parley-eval\/parley@/);
      expect(text, file).not.toMatch(/unpkg\.com/);
    }
    expect(README).toMatch(/not on the npm registry yet/);
  });
});

describe('links in the README and docs/ lead somewhere real', () => {
  it('finds the headings GitHub makes anchors of', () => {
    expect([...anchors('# A\n## Batch judging: `parley monitor --batch`\n```sh\n# not a heading\n```\n## 9. Exit codes\n## A\n')]).toEqual([
      'a',
      'batch-judging-parley-monitor---batch',
      '9-exit-codes',
      'a-1',
    ]);
  });

  it.each([join(REPO_ROOT, 'README.md'), ...DOC_PAGES].map((file) => [relative(REPO_ROOT, file), file]))('%s', (_name, file) => {
    expect(brokenLinks(file)).toEqual([]);
  });
});
