import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearestFolder } from './nearest-folder.js';

describe('nearestFolder', () => {
  const root = mkdtempSync(join(tmpdir(), 'parley-nearest-'));
  const deep = join(root, 'a', 'b', 'c');
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(root, 'a', 'marker'), '');
  writeFileSync(join(deep, 'own'), '');
  const holding = (name: string) => (folder: string) => existsSync(join(folder, name));

  it('is the folder itself when it holds, else the nearest folder above that does', () => {
    expect(nearestFolder(deep, holding('own'))).toBe(deep);
    expect(nearestFolder(deep, holding('marker'))).toBe(join(root, 'a'));
  });

  it('is undefined when no folder up to the root holds, having asked each once, root last', () => {
    const asked: string[] = [];
    expect(nearestFolder(deep, (folder) => (asked.push(folder), false))).toBeUndefined();
    expect(asked.slice(0, 4)).toEqual([deep, join(root, 'a', 'b'), join(root, 'a'), root]);
    expect(asked.at(-1)).toBe('/');
    expect(new Set(asked).size).toBe(asked.length);
  });
});
