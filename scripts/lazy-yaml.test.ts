import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as yaml from 'yaml';
// @ts-expect-error: a plain ES module script without declarations
import { lazyYamlImports } from './lazy-yaml.mjs';

const rewrite = lazyYamlImports as (code: string, module: unknown) => string;

describe('the yaml package evaluated on first use in the configuration loader', () => {
  const code =
    "import { isMap, LineCounter, parseDocument, visit } from 'yaml';\n" +
    'export function located(text) { const counter = new LineCounter(); const document = parseDocument(text, { lineCounter: counter });' +
    ' let first; visit(document, { Pair(_key, pair) { first = pair.key.value; return visit.BREAK; } });' +
    ' return { map: isMap(document.contents), first, position: counter.linePos(text.indexOf("b:")) }; }\n';

  it('replaces the import with stand-ins that require the package when first called', () => {
    const rewritten = rewrite(code, yaml);
    expect(rewritten).not.toMatch(/from 'yaml'/);
    expect(rewritten).toContain("require('yaml')");
    // A class is constructed, a function called, and a function's own properties (visit.BREAK) read through.
    expect(rewritten).toContain('function LineCounter(...args){return new (yaml$().LineCounter)(...args);}');
    expect(rewritten).toContain('const parseDocument=(...args)=>yaml$().parseDocument(...args);');
    expect(rewritten).toMatch(/Object\.defineProperty\(visit,"BREAK",/);
  });

  it('gives the same results as the package itself, and requires it only when a stand-in is used', () => {
    let required = 0;
    const realRequire = createRequire(join(process.cwd(), 'libs/config/package.json'));
    const lazyRequire = (name: string) => {
      required += 1;
      return realRequire(name) as unknown;
    };
    const body = rewrite(code, yaml).replace('export function located', 'return function located');
    const located = new Function('require', body)(lazyRequire) as (text: string) => unknown;
    expect(required).toBe(0);
    const text = 'a: 1\nb: 2\n';
    const counter = new yaml.LineCounter();
    const document = yaml.parseDocument(text, { lineCounter: counter });
    expect(located(text)).toEqual({ map: yaml.isMap(document.contents), first: 'a', position: counter.linePos(text.indexOf('b:')) });
    expect(required).toBe(1);
  });

  it('refuses an import it cannot stand in for', () => {
    expect(() => rewrite("import { nothing } from 'yaml';\n", yaml)).toThrow(/not a function or class/);
  });
});
