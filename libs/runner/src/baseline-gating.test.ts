import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASELINE_SCHEMA_VERSION, type BaselineFile } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { writeBaselineFile } from './baseline-gating.js';

const baseline: BaselineFile = { schema_version: BASELINE_SCHEMA_VERSION, suite: 's', parley_version: '0.1.0', created_at: '2026-01-01T00:00:00.000Z', config_fingerprint: 'f', entries: [] };

describe('writeBaselineFile', () => {
  it.skipIf(process.platform === 'win32')('names a FIFO once when refusing to write the baseline into it', () => {
    const fifo = join(mkdtempSync(join(tmpdir(), 'parley-baseline-fifo-')), 'baseline.json');
    execFileSync('mkfifo', [fifo]);
    expect(() => writeBaselineFile(fifo, baseline)).toThrow(
      `${fifo}: cannot write the baseline: is not a regular file (a FIFO, socket or device): nothing was written; give the path of a file`,
    );
    expect(statSync(fifo).isFIFO()).toBe(true);
  });
});
