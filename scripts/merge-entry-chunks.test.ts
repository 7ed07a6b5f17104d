import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { init, parse } from 'es-module-lexer';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without declarations
import { REQUIRE_BANNER } from './builtin-imports.mjs';
// @ts-expect-error: a plain ES module script without declarations
import { mergeEntryChunks } from './merge-entry-chunks.mjs';

type Merge = (options: { folder: string; entry: string; output: object }) => Promise<string[]>;
/** The output's form, as scripts/bundle-cli.mjs gives it to both builds. */
const output = { minify: true, sourcemap: 'linked', platform: 'node', format: 'esm', logLevel: 'warning' } as const;
const merge = mergeEntryChunks as Merge;

/** The relative files `file` imports statically. */
async function staticImports(file: string): Promise<string[]> {
  await init;
  const [imports] = parse(readFileSync(file, 'utf8'));
  return imports.filter((entry) => entry.d === -1 && entry.n?.startsWith('.')).map((entry) => entry.n!);
}

/**
 * A small split bundle as bundle-cli.mjs builds it: an entry that dynamically imports a command,
 * both using a module with state and a class, and a second entry (the package's API) that shares it.
 */
async function splitBundle(): Promise<{ out: string; entry: string }> {
  const root = mkdtempSync(join(tmpdir(), 'parley-merge-chunks-'));
  const src = join(root, 'src');
  mkdirSync(src);
  writeFileSync(join(src, 'shared.js'), 'export class Problem extends Error {}\nlet count = 0;\nexport function bump() { return ++count; }\n');
  writeFileSync(join(src, 'tiny.js'), "export const tiny = () => 'tiny';\n");
  writeFileSync(join(src, 'command.js'), "import { Problem, bump } from './shared.js';\nimport { tiny } from './tiny.js';\nexport function run() { bump(); return new Problem(tiny()); }\n");
  writeFileSync(
    join(src, 'main.js'),
    "import { Problem, bump } from './shared.js';\nimport { tiny } from './tiny.js';\n" +
      "export async function main() { bump(); const { run } = await import('./command.js'); const problem = run(); return { same: problem instanceof Problem, count: bump(), tiny: tiny(), stack: new Problem('here').stack }; }\n" +
      'export { Problem };\n',
  );
  writeFileSync(join(src, 'api.js'), "export { Problem, bump } from './shared.js';\n");
  const out = join(root, 'bundle');
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/main.js', api: 'src/api.js' },
    outdir: out,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    splitting: true,
    bundle: true,
    ...output,
    banner: { js: REQUIRE_BANNER },
  });
  return { out, entry: join(out, 'main.js') };
}

describe('folding the chunks an entry always loads into the entry', () => {
  it('leaves the entry importing no chunk, every module once: state and classes shared with the command and the API', async () => {
    const { out, entry } = await splitBundle();
    const before = await staticImports(entry);
    expect(before.length).toBeGreaterThan(0); // the split build imported chunks, or this test shows nothing
    const folded = await merge({ folder: out, entry, output });
    expect(folded.length).toBe(before.length);
    for (const path of folded) {
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.map`)).toBe(false);
    }
    expect(await staticImports(entry)).toEqual([]);
    // The command and the API import what they shared from the entry now.
    expect(await staticImports(join(out, 'api.js'))).toEqual(['./main.js']);
    // One process: the command's error is the entry's class, both bumped one counter, and the API
    // hands out the same class and counter.
    const script =
      `const m = await import(${JSON.stringify(pathToFileURL(entry).href)});const api = await import(${JSON.stringify(pathToFileURL(join(out, 'api.js')).href)});` +
      'const result = await m.main();console.log(JSON.stringify({ same: result.same, count: result.count, tiny: result.tiny, apiClass: api.Problem === m.Problem, next: api.bump() }));';
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual({ same: true, count: 3, tiny: 'tiny', apiClass: true, next: 4 });
  });

  it("keeps the sources in the entry's map, and every other file's lines and columns where their maps expect them", async () => {
    const { out, entry } = await splitBundle();
    const chunks = join(out, 'chunks');
    const others = [join(out, 'api.js'), ...readdirSync(chunks).filter((name) => name.endsWith('.js')).map((name) => join(chunks, name))];
    const before = new Map(others.map((file) => [file, readFileSync(file, 'utf8')]));
    const folded = await merge({ folder: out, entry, output });
    const map = JSON.parse(readFileSync(`${entry}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.map((source) => source.replace(/^(\.\.\/)+/, ''))).toEqual(expect.arrayContaining(['src/main.js', 'src/shared.js', 'src/tiny.js']));
    let changed = 0;
    for (const [file, code] of before) {
      if (folded.includes(file)) continue;
      const after = readFileSync(file, 'utf8').split('\n');
      const lines = code.split('\n');
      expect(after.length).toBe(lines.length);
      // Below the first line only whole import statements became spaces, character for character.
      for (let index = 1; index < lines.length; index++) {
        expect(after[index]!.length).toBe(lines[index]!.length);
        for (let column = 0; column < lines[index]!.length; column++) if (after[index]![column] !== lines[index]![column]) expect(after[index]![column]).toBe(' ');
      }
      if (after.join('\n') !== code) changed++;
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('stops with an error for an import of a folded chunk it cannot point at the entry', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'parley-merge-chunks-'));
    writeFileSync(join(folder, 'entry.js'), `${REQUIRE_BANNER}\nimport{a as b}from"./chunk-A.js";export{b};\n`);
    writeFileSync(join(folder, 'chunk-A.js'), `${REQUIRE_BANNER}\nexport const a=1;\n`);
    writeFileSync(join(folder, 'other.js'), `${REQUIRE_BANNER}\nimport*as n from"./chunk-A.js";export{n};\n`);
    await expect(merge({ folder, entry: join(folder, 'entry.js'), output })).rejects.toThrow(/does not handle.*import\*as n from"\.\/chunk-A\.js"/);
    writeFileSync(join(folder, 'other.js'), `${REQUIRE_BANNER}\nexport const load=()=>import("./chunk-A.js");\n`);
    await expect(merge({ folder, entry: join(folder, 'entry.js'), output })).rejects.toThrow(/imports \.\/chunk-A\.js dynamically/);
  });
});
