import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { abandonedHere, claimHolder } from './claim-holder.js';

describe('claim holders', () => {
  it('names this machine and process, and calls a holder abandoned only when its process of this machine is gone', async () => {
    const own = claimHolder();
    expect(own).toMatch(new RegExp(`^${hostname()}:${process.pid}:[0-9a-f]{8}$`));
    expect(claimHolder()).not.toBe(own);
    expect(abandonedHere(own)).toBe(false);
    const child = spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] });
    const pid = child.pid!;
    expect(abandonedHere(`${hostname()}:${pid}:abcdef01`)).toBe(false);
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.stdin.end();
    child.kill('SIGKILL');
    await exited;
    expect(abandonedHere(`${hostname()}:${pid}:abcdef01`)).toBe(true);
    // Another machine's process cannot be checked from here: its claims wait for their lease.
    expect(abandonedHere(`another-host-${hostname()}:${pid}:abcdef01`)).toBe(false);
    expect(abandonedHere('not a holder')).toBe(false);
  });
});
