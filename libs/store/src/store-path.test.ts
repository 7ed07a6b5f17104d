import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultStorePath } from './store-path.js';

describe('defaultStorePath', () => {
  it('is .parley/parley.db under the working folder, absolute', () => {
    expect(defaultStorePath('/work/suite')).toBe(join('/work/suite', '.parley', 'parley.db'));
  });
});
