import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@parley/core';
import { promptVersion } from './prompt-version.js';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' },
  }).trim();
}

describe('promptVersion', () => {
  it('is <stem>@<short sha of the last commit>, with -dirty.<8 hex of the content> once edited', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'parley-prompt-'));
    git(repo, 'init', '-q');
    const file = join(repo, 'booking_orchestrator.md');
    writeFileSync(file, 'You book massages.\n');
    git(repo, 'add', '.');
    git(repo, 'commit', '-q', '-m', 'prompt');
    const sha = git(repo, 'log', '-1', '--format=%h');
    expect(await promptVersion(file, 'booking')).toBe(`booking_orchestrator@${sha}`);

    writeFileSync(file, 'You book massages. Be brief.\n');
    expect(await promptVersion(file, 'booking')).toBe(`booking_orchestrator@${sha}-dirty.${sha256Hex('You book massages. Be brief.\n').slice(0, 8)}`);
    // Two different uncommitted edits are two versions.
    writeFileSync(file, 'You book massages. Be warm.\n');
    expect(await promptVersion(file, 'booking')).toBe(`booking_orchestrator@${sha}-dirty.${sha256Hex('You book massages. Be warm.\n').slice(0, 8)}`);
  });

  it('marks a file that was never committed, or lives outside git, as dirty with no sha', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-prompt-'));
    const file = join(folder, 'agent.md');
    writeFileSync(file, 'Hi');
    expect(await promptVersion(file, 'agent')).toBe(`agent@none-dirty.${sha256Hex('Hi').slice(0, 8)}`);
  });

  it('names agents without a prompt file by their name', async () => {
    expect(await promptVersion(undefined, 'booking_service')).toBe('booking_service@none');
  });
});
