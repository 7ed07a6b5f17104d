import { describe, expect, it } from 'vitest';
import { ConfigError, formatIssue } from './config-error.js';

describe('ConfigError', () => {
  it('formats each issue as file:line:column: message', () => {
    const error = new ConfigError([
      { file: 'scenarios/a.yaml', line: 3, column: 5, message: 'unknown key "treshold"' },
      { file: 'parley.yaml', message: 'missing required key "suite"' },
    ]);
    expect(error.message).toBe('scenarios/a.yaml:3:5: unknown key "treshold"\nparley.yaml: missing required key "suite"');
    expect(error.issues).toHaveLength(2);
  });

  it('accepts a bare message for flag errors', () => {
    expect(formatIssue(new ConfigError('--mode must be one of replay, live, record').issues[0]!)).toBe(
      '--mode must be one of replay, live, record',
    );
  });
});
