import { describe, expect, it } from 'vitest';
import { displayPath } from './display-path.js';

describe('displayPath', () => {
  it('shows a path inside the working folder relative to it', () => {
    expect(displayPath('/work/suite/out/report.json', '/work/suite')).toBe('out/report.json');
  });

  it('shows the working folder itself as .', () => {
    expect(displayPath('/work/suite', '/work/suite')).toBe('.');
  });

  it('shows a path outside the working folder whole, never with ../', () => {
    expect(displayPath('/work/other/report.json', '/work/suite')).toBe('/work/other/report.json');
    expect(displayPath('/work/suite-2/x', '/work/suite')).toBe('/work/suite-2/x');
  });

  it('leaves a relative path as it was given', () => {
    expect(displayPath('scenarios/a.yaml', '/work/suite')).toBe('scenarios/a.yaml');
  });
});
