import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { directImports, exportedNames } from './direct-imports.mjs';

type Names = Map<string, string>;
const names = exportedNames as (file: string) => Names;
const rewrite = directImports as (source: string, indexOf: (specifier: string) => Names | undefined) => string;

/** A compiled package as tsc writes it: an index of re-exports over the files that define them. */
function fixture(): string {
  const dir = mkdtempSync(join(tmpdir(), 'parley-direct-imports-'));
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'index.js'), "export * from './a.js';\nexport { b, renamed as c } from './b.js';\nexport * from './sub/index.js';\n");
  writeFileSync(join(dir, 'a.js'), "export function a() {}\nexport async function aa() {}\nexport class A {}\nconst local = 1;\nexport { local as exportedLocal };\n");
  writeFileSync(join(dir, 'b.js'), 'export const b = 1;\nexport let renamed = 2;\n');
  writeFileSync(join(dir, 'sub', 'index.js'), "export {\n  d,\n} from './d.js';\n");
  writeFileSync(join(dir, 'sub', 'd.js'), 'export function* d() {}\n');
  return dir;
}

describe('direct imports for the CLI bundle', () => {
  it('finds the file that defines each name an index exports, through nested and renamed re-exports', () => {
    const dir = fixture();
    const found = names(join(dir, 'index.js'));
    expect(Object.fromEntries(found)).toEqual({
      a: join(dir, 'a.js'),
      aa: join(dir, 'a.js'),
      A: join(dir, 'a.js'),
      exportedLocal: join(dir, 'a.js'),
      b: join(dir, 'b.js'),
      // Renamed on the way out: only the index has it under the new name.
      c: join(dir, 'index.js'),
      d: join(dir, 'sub', 'd.js'),
    });
  });

  it('points named imports at the defining files on one line, and keeps any import it cannot resolve whole', () => {
    const dir = fixture();
    const index = names(join(dir, 'index.js'));
    const indexOf = (specifier: string) => (specifier === '@parley/x' ? index : undefined);
    const source = "import { a, b as bee } from '@parley/x';\nimport { a as again, unknown } from '@parley/x';\nimport { y } from '@parley/y';\nimport * as x from '@parley/x';\nconst lazy = () => import('@parley/x');\n";
    const lines = rewrite(source, indexOf).split('\n');
    expect(lines[0]).toBe(`import { a } from ${JSON.stringify(join(dir, 'a.js'))}; import { b as bee } from ${JSON.stringify(join(dir, 'b.js'))};`);
    expect(lines.slice(1)).toEqual(source.split('\n').slice(1));
  });
});
