import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot as root } from '../workspace-packages.js';

/**
 * The documents a comment may not send a maintainer to: the product specification and the users'
 * source documents (seeds, and the ADRs they hold) are not in this repository. The patterns are
 * written so that this file does not match them itself.
 */
const outsideDocuments: ReadonlyArray<[string, RegExp]> = [
  ['the specification', /\bS[P]EC\b/],
  ['a section sign', /\u00a7/],
  ['a seed document', /\bseeds?[ _-]?0\d\d/i],
  ['the seeds folder', /\bseed[s]\//i],
  ['an ADR of the seeds', /\bAD[R]-?\d/],
];

const checkedFolders = ['apps', 'libs', 'tools', 'scripts'];
const textFile = /\.(ts|tsx|mts|mjs|cjs|js|json|md|ya?ml|sh|sql)$/;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    // Build output, not source: dist/, and apps/cli/schemas/ (written from docs/file-formats.md by scripts/write-schemas.mjs).
    if (entry.isDirectory()) return ['node_modules', 'dist', 'schemas', 'coverage', '.parley'].includes(entry.name) ? [] : filesUnder(path);
    return textFile.test(entry.name) ? [path] : [];
  });
}

const sourceFiles = checkedFolders.flatMap((folder) => filesUnder(join(root, folder)));

/**
 * The pages people read outside the code: the README, docs/, and the READMEs of the examples and
 * the calibration set. They number their own sections with the section sign (as file-formats.md does), so
 * only the names of outside documents are refused here.
 */
const pages = [
  join(root, 'README.md'),
  join(root, 'calibration', 'README.md'),
  ...filesUnder(join(root, 'docs')),
  ...filesUnder(join(root, 'examples')).filter((file) => file.endsWith('README.md')),
].filter((file) => file.endsWith('.md'));
const outsideDocumentNames = outsideDocuments.filter(([what]) => what !== 'a section sign');

/** Each line of the files that matches one of the patterns, as `file:line: what: text`. */
function linesNaming(files: readonly string[], patterns: ReadonlyArray<[string, RegExp]>): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => patterns.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${relative(root, file)}:${index + 1}: ${what}: ${line.trim()}`)),
  );
}

/** A page of docs/ or the README, optionally followed (after a comma or an opening parenthesis, on the same comment or the next line) by the quoted words of one of its parts. */
const citation = /\b(docs\/[\w-]+\.md|README)\b(?:(?:,|\s*\()\s*(?:(?:\*|\/\/|--)\s*)?"([^"\n]+)")?/g;

describe('references in the source', () => {
  it('reads every app, library, tool and script', () => {
    expect(sourceFiles.length).toBeGreaterThan(500);
  });

  it('names no document outside the repository', () => {
    expect(linesNaming(sourceFiles, outsideDocuments)).toEqual([]);
  });

  it('cites docs that exist, and parts of them that exist', () => {
    const problems = sourceFiles.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(citation)].flatMap(([, document = '', part]) => {
        const path = join(root, document === 'README' ? 'README.md' : document);
        if (!existsSync(path)) return [`${relative(root, file)}: ${document} does not exist`];
        const plain = (text: string) => text.replaceAll('`', '').toLowerCase();
        if (part !== undefined && !plain(readFileSync(path, 'utf8')).includes(plain(part))) return [`${relative(root, file)}: ${document} has no "${part}"`];
        return [];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('reads the README, every docs page and the example READMEs', () => {
    expect(pages.length).toBeGreaterThan(20);
  });

  it('sends no reader of a page to a document outside the repository', () => {
    expect(linesNaming(pages, outsideDocumentNames)).toEqual([]);
  });
});
