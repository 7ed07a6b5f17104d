import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRubric } from './rubric-file.js';

function rubricFile(text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'parley-rubric-')), 'rubric.md');
  writeFileSync(file, text);
  return file;
}

describe('loadRubric', () => {
  it('reads the version from the front matter and keeps the rest as the rubric', () => {
    const rubric = loadRubric(rubricFile('---\nversion: "1.2.0"   # bumped in December\n---\n# Rubric\n\nBe kind.\n'));
    expect(rubric).toMatchObject({ version: '1.2.0', text: '# Rubric\n\nBe kind.' });
    expect(rubric.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a rubric without a version or without text, and a missing file', () => {
    expect(() => loadRubric(rubricFile('# Rubric\n'))).toThrow(/rubric\.md:1:1: a rubric starts with a front matter that names its version/);
    expect(() => loadRubric(rubricFile('---\nowner: me\n---\ntext\n'))).toThrow(/front matter/);
    expect(() => loadRubric(rubricFile('---\nversion: 1.0.0\n---\n\n'))).toThrow(/the rubric is empty/);
    expect(() => loadRubric('/nowhere/rubric.md')).toThrow(/file not found/);
  });
});
