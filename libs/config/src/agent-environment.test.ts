import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingEnvironmentIssues } from './agent-environment.js';
import type { SuiteFile } from './suite-schema.js';

const YAML = `suite: front_desk
agents:
  front:
    kind: http
    url: \${FRONT_URL}/chat
    headers: { authorization: "Bearer \${FRONT_TOKEN}" }
`;

describe('missingEnvironmentIssues', () => {
  it('names each unset variable at its place, with a URL default only for a URL (never a made-up token)', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'parley-agent-env-')), 'parley.yaml');
    writeFileSync(file, YAML);
    const config = { suite: 'front_desk', agents: { front: { kind: 'http', url: '${FRONT_URL}/chat', headers: { authorization: 'Bearer ${FRONT_TOKEN}' } } } } as unknown as SuiteFile;
    const issues = missingEnvironmentIssues({ file, config }, {});
    expect(issues.map((issue) => [issue.line, issue.message])).toEqual([
      [5, '${FRONT_URL} is not set in the environment: set FRONT_URL before running, or give a default: ${FRONT_URL:-http://127.0.0.1:8787}'],
      [6, '${FRONT_TOKEN} is not set in the environment: set FRONT_TOKEN before running (or give a default: ${FRONT_TOKEN:-value})'],
    ]);
  });
});
