import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { builtinImports } from './builtin-imports.mjs';

const rewrite = builtinImports as (code: string) => Promise<string>;
const BANNER = "const require = process.getBuiltinModule('node:module').createRequire(import.meta.url);";

describe('built-in modules without ES imports in the CLI bundle', () => {
  it('turns every form esbuild writes into declarations on the first line, blanking each statement in place', async () => {
    const body =
      'function early(){return a(".")+c+d.sep+e.sep+typeof h.spawn}' +
      'import{readFileSync as a,existsSync as c}from"node:fs";import*as d from"node:path";import e from"path";' +
      'import f,{EOL as g}from"node:os";import"node:crypto";import h from"node:child_process";' +
      'import{x as y}from"./chunk-A.js";export{early};';
    const code = `${BANNER}\n${body}\n//# sourceMappingURL=x.js.map\n`;
    const result = await rewrite(code);
    const [first, second, ...rest] = result.split('\n');
    expect(first).toBe(
      BANNER +
        'var {readFileSync:a,existsSync:c}=process.getBuiltinModule("node:fs");var d=process.getBuiltinModule("node:path");' +
        'var e=process.getBuiltinModule("path");var f=process.getBuiltinModule("node:os"),{EOL:g}=f;' +
        'process.getBuiltinModule("node:crypto");var h=process.getBuiltinModule("node:child_process");',
    );
    // Same length and the same columns for what is left, so the source map still points right.
    expect(second).toHaveLength(body.length);
    expect(second!.startsWith('function early(){')).toBe(true);
    expect(second!.indexOf('import{x as y}from"./chunk-A.js"')).toBe(body.indexOf('import{x as y}from"./chunk-A.js"'));
    expect(second).not.toMatch(/from"(node:)?(fs|path|os|crypto|child_process)"/);
    expect(rest.join('\n')).toBe('//# sourceMappingURL=x.js.map\n');
  });

  it('gives the module the same values as the ES imports did, bound before its code runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-builtin-imports-'));
    const source = `${BANNER}\nexport const early = seen();function seen(){return [typeof a, b.sep, typeof c.spawn, d]}import{readFileSync as a}from"node:fs";import*as b from"node:path";import c from"node:child_process";import{EOL as d}from"node:os";\n`;
    const file = join(dir, 'module.mjs');
    writeFileSync(file, await rewrite(source));
    const loaded = (await import(pathToFileURL(file).href)) as { early: unknown[] };
    const { sep } = await import('node:path');
    const { EOL } = await import('node:os');
    expect(loaded.early).toEqual(['function', sep, 'function', EOL]);
  });

  it('leaves dynamic imports, strings and files without built-in imports alone', async () => {
    const code = `${BANNER}\nconst s='import{a}from"node:fs"';const m=await import("node:http");import{q}from"./chunk-B.js";\n`;
    expect(await rewrite(code)).toBe(code);
  });
});
