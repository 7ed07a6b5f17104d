import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parleyAsync } from './test-support/parley-process.js';

const NOTE = 'live run: the suite has no recordings yet';

describe('parley run with no --mode and no recordings', () => {
  it('says the run was live and how to record, so a missing key is not read as a replay needing one', async () => {
    const project = mkdtempSync(join(tmpdir(), 'parley-live-default-'));
    expect((await parleyAsync(['init', '--yes'], { cwd: project })).status).toBe(0);
    const replayed = await parleyAsync(['run'], { cwd: project });
    expect(replayed.status).toBe(0);
    expect(replayed.stderr).not.toContain(NOTE);

    rmSync(join(project, 'recordings'), { recursive: true });
    const live = await parleyAsync(['run'], { cwd: project });
    expect(live.stdout).toContain('OPENAI_API_KEY is not set');
    expect(live.stderr).toContain(`${NOTE}, so this run was live (it calls the agents and models: keys, network, cost); record them once (parley run . --mode record)`);
    const asked = await parleyAsync(['run', '--mode', 'live'], { cwd: project });
    expect(asked.stdout).toContain('OPENAI_API_KEY is not set');
    expect(asked.stderr).not.toContain(NOTE);
  });
});
