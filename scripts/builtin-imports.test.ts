import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { builtinImports, withoutUnusedRequire } from './builtin-imports.mjs';

const rewrite = builtinImports as (code: string) => Promise<string>;
const withoutRequire = withoutUnusedRequire as (code: string) => string;
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
        // node:crypto and node:child_process are loaded on first use: a bare import binds nothing, a default import is an object that loads the module when read.
        'var $parleyBuiltin_crypto;var $parleyBuiltin_child_process;var h=new Proxy({},{get:(_,key)=>($parleyBuiltin_child_process??=process.getBuiltinModule("node:child_process"))[key],' +
        'has:(_,key)=>key in ($parleyBuiltin_child_process??=process.getBuiltinModule("node:child_process"))});',
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

  it('loads node:crypto, node:child_process and node:os when a function of theirs is first called, not when the file loads', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-builtin-imports-'));
    const source =
      `${BANNER}\nexport const loaded = (name) => process.moduleLoadList.includes(\`NativeModule \${name}\`);` +
      'export const hash = (text) => h("sha256").update(text).digest("hex");export const spawnIs = () => typeof cp.spawn;export const user = () => typeof u().username;' +
      'import{createHash as h}from"node:crypto";import*as cp from"node:child_process";import{userInfo as u}from"node:os";\n';
    const rewritten = await rewrite(source);
    expect(rewritten.split('\n')[0]).not.toMatch(/[^?]=process\.getBuiltinModule\("node:(crypto|child_process|os)"\)/);
    const file = join(dir, 'module.mjs');
    writeFileSync(file, rewritten);
    // A fresh Node (vitest has loaded all three already): before and after each first use.
    const script =
      `const m = await import(${JSON.stringify(pathToFileURL(file).href)});const before = ['crypto', 'child_process'].map(m.loaded);` +
      'const values = [m.hash("a"), m.spawnIs(), m.user()];console.log(JSON.stringify({ before, values, after: ["crypto", "child_process"].map(m.loaded) }));';
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const { createHash } = await import('node:crypto');
    expect(JSON.parse(child.stdout)).toEqual({
      before: [false, false],
      values: [createHash('sha256').update('a').digest('hex'), 'function', 'string'],
      after: [true, true],
    });
  });

  it('takes classes and constants of the lazily loaded modules at once (a wrapper would break new and instanceof)', async () => {
    const code = `${BANNER}\nimport{Hash as H,constants as k,randomUUID as r}from"node:crypto";export{H,k,r};\n`;
    expect((await rewrite(code)).split('\n')[0]).toBe(`${BANNER}var {Hash:H,constants:k,randomUUID:r}=process.getBuiltinModule("node:crypto");`);
  });

  it('leaves dynamic imports, strings and files without built-in imports alone', async () => {
    const code = `${BANNER}\nconst s='import{a}from"node:fs"';const m=await import("node:http");import{q}from"./chunk-B.js";\n`;
    expect(await rewrite(code)).toBe(code);
  });
});

describe("the banner's require, only in files that use it", () => {
  it('drops the banner from a file that never names require, keeping its line and what follows', () => {
    const code = `${BANNER}var {join:j}=process.getBuiltinModule("node:path");\nexport const f=()=>j("a","b");\n`;
    expect(withoutRequire(code)).toBe('var {join:j}=process.getBuiltinModule("node:path");\nexport const f=()=>j("a","b");\n');
  });

  it('keeps it where the code below names require (esbuild\'s runtime shim for CommonJS packages), even in a string', () => {
    const shim = `${BANNER}\nvar m=(a=>typeof require<"u"?require:a)(function(a){throw Error("no "+a)});export{m};\n`;
    expect(withoutRequire(shim)).toBe(shim);
    const mention = `${BANNER}\nconst s="require";export{s};\n`;
    expect(withoutRequire(mention)).toBe(mention);
    expect(withoutRequire('export const x=1;\n')).toBe('export const x=1;\n');
  });
});
