import type { ConfigIssue } from '@parley/core';
import type { ParsedConfigFile } from './config-file.js';
import { holdsStringOrDepth, MAX_NESTING_DEPTH } from './nesting-depth.js';
import type { DataPath } from './yaml-source.js';
import type { Expectation } from './expectation-schema.js';
import type { ScenarioFile } from './scenario-schema.js';

/**
 * Scenario variants (docs/file-formats.md, "Variants"): one scenario file run once per row of
 * values, `vars:` (each name a list of values, combined as a product) or `cases:` (the rows
 * themselves). `{{name}}` in the scenario's texts is replaced by the row's value. Each variant
 * is a case of its own, `<scenario>[name=value,…]` with the names sorted, so its id does not
 * depend on the order names are written or rows listed, and adding a value leaves every other
 * variant's id (and so its recording, results, baseline entry and shard) as it was.
 */
export interface ScenarioVariant {
  /** `spa_booking[lang=zu,persona=rushed]`. */
  id: string;
  /** The scenario file's own id. */
  scenario: string;
  /** The row's values, as text. */
  vars: Record<string, string>;
  /** The scenario with the row's values written in (and without `vars` / `cases`). */
  data: ScenarioFile;
}

/** More variants than this from one file is a mistake in the lists, not a test plan: refused before they are made. */
const MAX_VARIANTS = 10_000;

/**
 * `{{ name }}`: a variable in a scenario text; `\{{name}}` is the text `{{name}}` itself (for a
 * scenario that must send those braces, e.g. a template-injection test). Other braces are left alone.
 */
const PLACEHOLDER = /(\\?)\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/**
 * The id of a variant: the scenario's id and its values, names sorted.
 *
 * @example variantId('spa_booking', { persona: 'rushed', lang: 'zu' }) // 'spa_booking[lang=zu,persona=rushed]'
 */
export function variantId(scenarioId: string, vars: Readonly<Record<string, string>>): string {
  const names = Object.keys(vars).sort();
  return `${scenarioId}[${names.map((name) => `${name}=${vars[name]}`).join(',')}]`;
}

/** The rows of a scenario's `vars:` (their product) or `cases:`; undefined when it has neither. */
function variantRows(data: ScenarioFile): Array<Record<string, string>> | undefined {
  if (data.cases !== undefined) return data.cases.map((row) => Object.fromEntries(Object.entries(row).map(([name, value]) => [name, String(value)])));
  if (data.vars === undefined) return undefined;
  let rows: Array<Record<string, string>> = [{}];
  for (const [name, values] of Object.entries(data.vars)) {
    rows = rows.flatMap((row) => values.map((value) => ({ ...row, [name]: String(value) })));
  }
  return rows;
}

/**
 * A scenario as the cases it runs as: one per variant, or the scenario itself when it has no
 * `vars:` / `cases:`. Call it on a scenario whose variables passed `variantIssues`.
 */
export function expandScenario(data: ScenarioFile): ScenarioVariant[] | undefined {
  const rows = variantRows(data);
  if (rows === undefined) return undefined;
  return rows.map((vars) => ({ id: variantId(data.id, vars), scenario: data.id, vars, data: applyVariant(data, variantId(data.id, vars), vars) }));
}

function applyVariant(data: ScenarioFile, id: string, vars: Readonly<Record<string, string>>): ScenarioFile {
  const { vars: _vars, cases: _cases, ...rest } = data;
  const substituted = mapTemplates(rest, (text) => fillText(text, vars));
  return { ...substituted, id };
}

/** `{{name}}` replaced by its value, `\{{name}}` by the text `{{name}}`; a name without a value stays as written. */
function fillText(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(PLACEHOLDER, (whole, escape: string, name: string) => (escape !== '' ? whole.slice(1) : Object.hasOwn(vars, name) ? (vars[name] as string) : whole));
}

/**
 * The names a scenario's `{{name}}` may use: its `vars:` names, or those of its first case
 * (none for a scenario with neither).
 */
export function variableNames(data: ScenarioFile): string[] {
  if (data.cases !== undefined) return Object.keys(data.cases[0] ?? {});
  return data.vars !== undefined ? Object.keys(data.vars) : [];
}

/**
 * Expectations a scenario inherits (parley.yaml's `defaults.expect`, its agent's `expect`) as they
 * apply to one of its cases: the variant's values written into every parameter but `metric`, as in
 * the scenario's own expectations; `\{{name}}` becomes the text `{{name}}` for every case. Their
 * unknown names are reported by `inheritedVariables` and the suite's loader.
 *
 * @example fillExpectations([{ metric: 'regex', pattern: 'lang={{lang}}' }], { lang: 'zu' }) // [{ metric: 'regex', pattern: 'lang=zu' }]
 */
export function fillExpectations(expectations: readonly Expectation[], vars: Readonly<Record<string, string>>): Expectation[] {
  return mapExpectations(expectations, [], (text) => fillText(text, vars));
}

/** A `{{name}}` written in an expectation: where (the string's path in its file), as written, and the name. */
export interface ExpectationVariable {
  path: DataPath;
  text: string;
  name: string;
}

/** Whether an expectation's parameters hold a `{{name}}` (not only `\{{name}}`). */
export function hasVariables(expectation: Expectation): boolean {
  return inheritedVariables([expectation], []).length > 0;
}

/** Every `{{name}}` (not `\{{name}}`) in the parameters of expectations written at `basePath` of a file. */
export function inheritedVariables(expectations: readonly Expectation[], basePath: DataPath): ExpectationVariable[] {
  const found: ExpectationVariable[] = [];
  mapExpectations(expectations, basePath, (text, path) => {
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1] === '') found.push({ path, text: match[0], name: match[2] as string });
    return text;
  });
  return found;
}

/**
 * A scenario without variables as it runs: `\{{name}}` becomes the text `{{name}}`. The data is
 * returned as it is when it has no such text (its fingerprint stays what it was).
 */
export function withLiteralBraces(data: ScenarioFile): ScenarioFile {
  if (!holdsBraces(data)) return data;
  let escaped = false;
  mapTemplates(data, (text) => {
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1] !== '') escaped = true;
    return text;
  });
  return escaped ? applyVariant(data, data.id, {}) : data;
}

/**
 * Marks every `{{name}}` of a scenario written from someone else's text (a production
 * conversation, a dataset dialogue, an LLM's draft) as literal text, `\{{name}}`, so the file
 * loads and runs with the braces as they were.
 *
 * @example escapeVariables(scenario).user.opening // 'Hi \\{{first_name}}' for 'Hi {{first_name}}'
 */
export function escapeVariables(data: ScenarioFile): ScenarioFile {
  const { vars, cases, ...rest } = data;
  const escaped = mapTemplates(rest, (text) => text.replace(PLACEHOLDER, (whole, escape: string) => (escape !== '' ? whole : `\\${whole}`)));
  return { ...escaped, ...(vars !== undefined ? { vars } : {}), ...(cases !== undefined ? { cases } : {}) };
}

/**
 * Problems with a scenario's variables, each at its place in the file: `vars:` and `cases:`
 * together, a value given twice, rows naming different variables, two variants with one id
 * (also when they differ only in letter case: their recordings would be one file on a
 * case-insensitive disk), and every `{{name}}` that names no variable, at its line and column.
 */
export function variantIssues(data: ScenarioFile, source: Pick<ParsedConfigFile<ScenarioFile>, 'issueAt' | 'issueAtText'>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  if (data.vars !== undefined && data.cases !== undefined) {
    issues.push(source.issueAt(['cases'], 'give either vars: (every combination of the lists) or cases: (explicit rows), not both', { target: 'key' }));
    return issues;
  }
  let names: string[] = [];
  if (data.vars !== undefined) {
    names = Object.keys(data.vars);
    if (names.length === 0) issues.push(source.issueAt(['vars'], 'vars: names no variable; give at least one, e.g. vars: { lang: [en, sw] }'));
    const count = Object.values(data.vars).reduce((product, values) => product * values.length, 1);
    if (count > MAX_VARIANTS) {
      issues.push(source.issueAt(['vars'], `vars: makes ${count.toLocaleString('en-US')} variants (the product of the lists); at most ${MAX_VARIANTS.toLocaleString('en-US')}: list the rows you need under cases: instead`, { target: 'key' }));
      return issues;
    }
    for (const [name, values] of Object.entries(data.vars)) {
      const seen = new Set<string>();
      values.forEach((value, index) => {
        const text = String(value);
        if (seen.has(text)) issues.push(source.issueAt(['vars', name, index], `the value "${text}" of "${name}" is listed twice`));
        seen.add(text);
      });
    }
  }
  if (data.cases !== undefined) {
    names = Object.keys(data.cases[0] ?? {});
    const ids = new Map<string, number>();
    data.cases.forEach((row, index) => {
      const rowNames = Object.keys(row);
      if (rowNames.length === 0) {
        issues.push(source.issueAt(['cases', index], 'a case names no variable'));
        return;
      }
      const missing = names.filter((name) => !rowNames.includes(name));
      const extra = rowNames.filter((name) => !names.includes(name));
      if (missing.length > 0 || extra.length > 0) {
        const parts = [missing.length > 0 ? `lacks ${missing.join(', ')}` : '', extra.length > 0 ? `adds ${extra.join(', ')}` : ''].filter(Boolean);
        issues.push(source.issueAt(['cases', index], `every case gives the same variables as the first (${names.join(', ')}); this one ${parts.join(' and ')}`));
        return;
      }
      const id = variantId(data.id, Object.fromEntries(Object.entries(row).map(([name, value]) => [name, String(value)]))).toLowerCase();
      const earlier = ids.get(id);
      if (earlier !== undefined) {
        issues.push(source.issueAt(['cases', index], `this case repeats case ${earlier + 1} (variant ids must differ, also in more than letter case)`));
      }
      ids.set(id, index);
    });
  }
  if (data.vars !== undefined) {
    for (const [name, values] of Object.entries(data.vars)) {
      const lower = new Map<string, string>();
      values.forEach((value, index) => {
        const text = String(value);
        const other = lower.get(text.toLowerCase());
        if (other !== undefined && other !== text) {
          issues.push(source.issueAt(['vars', name, index], `"${text}" and "${other}" differ only in letter case: their variants' recordings would be one file on a case-insensitive disk`));
        }
        lower.set(text.toLowerCase(), text);
      });
    }
  }
  issues.push(...unknownVariableIssues(data, names, source));
  return issues;
}

/** The names a scenario's texts use as `{{name}}` (not `\{{name}}`), outside `vars:` and `cases:`. */
export function usedVariableNames(data: ScenarioFile): Set<string> {
  const used = new Set<string>();
  if (!holdsBraces(data)) return used;
  const { vars: _vars, cases: _cases, ...rest } = data;
  mapTemplates(rest, (text) => {
    for (const match of text.matchAll(PLACEHOLDER)) if (match[1] === '') used.add(match[2] as string);
    return text;
  });
  return used;
}

function unknownVariableIssues(data: ScenarioFile, names: readonly string[], source: Pick<ParsedConfigFile<ScenarioFile>, 'issueAtText'>): ConfigIssue[] {
  if (!holdsBraces(data)) return [];
  const issues: ConfigIssue[] = [];
  const known = names.length > 0 ? `; the scenario's variables are ${names.join(', ')}` : '; the scenario has no vars: or cases:';
  const { vars: _vars, cases: _cases, ...rest } = data;
  mapTemplates(rest, (text, path) => {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const name = match[2] as string;
      if (match[1] === '' && !names.includes(name)) issues.push(source.issueAtText(path, match[0], `unknown variable {{${name}}}${known} (write \\{{${name}}} for the text itself)`));
    }
    return text;
  });
  return issues;
}

/**
 * Whether any string anywhere in `value` holds `{{`, which every `{{name}}` and `\{{name}}` does.
 * Most scenarios have none: they are then spared the walks below, which copy the whole scenario
 * (a tenth of loading a large suite). Looks at more than those walks do, never less (a value
 * nested deeper than a file may counts as yes: the full walk decides).
 */
function holdsBraces(value: unknown): boolean {
  return holdsStringOrDepth(value, MAX_NESTING_DEPTH + 1, (text) => text.includes('{{'));
}

type Templated = Omit<ScenarioFile, 'vars' | 'cases'>;

/**
 * The scenario with `substitute` applied to every text that may hold `{{name}}`: title, language,
 * the user's opening, script lines, simulator persona and goal, tool mocks (every string inside
 * `returns`, and `error`) and the expectations' parameters (every string but `metric`).
 */
function mapTemplates<Data extends Templated>(data: Data, substitute: (text: string, path: DataPath) => string): Data {
  const text = (value: string | undefined, path: DataPath): string | undefined => (value === undefined ? undefined : substitute(value, path));
  const title = text(data.title, ['title']);
  const language = text(data.language, ['language']);
  const user = data.user;
  const simulate = user.simulate;
  const opening = text(user.opening, ['user', 'opening']);
  return {
    ...data,
    ...(title !== undefined ? { title } : {}),
    ...(language !== undefined ? { language } : {}),
    user: {
      ...user,
      ...(opening !== undefined ? { opening } : {}),
      script: user.script.map((line, index) => substitute(line, ['user', 'script', index])),
      ...(simulate !== undefined
        ? { simulate: { ...simulate, persona: substitute(simulate.persona, ['user', 'simulate', 'persona']), goal: substitute(simulate.goal, ['user', 'simulate', 'goal']) } }
        : {}),
    },
    tools: Object.fromEntries(
      Object.entries(data.tools).map(([name, mock]) => [
        name,
        'error' in mock ? { error: substitute(mock.error, ['tools', name, 'error']) } : { returns: deepMap(mock.returns, ['tools', name, 'returns'], substitute) },
      ]),
    ),
    expect: mapExpectations(data.expect, ['expect'], substitute),
  };
}

/** `substitute` applied to every string of the expectations' parameters (every key but `metric`). */
function mapExpectations(expectations: readonly Expectation[], basePath: DataPath, substitute: (text: string, path: DataPath) => string): Expectation[] {
  return expectations.map((expectation, index) => {
    const { metric, ...parameters } = expectation;
    return { metric, ...(deepMap(parameters, [...basePath, index], substitute) as object) } as Expectation;
  });
}

function deepMap(value: unknown, path: DataPath, substitute: (text: string, path: DataPath) => string): unknown {
  if (typeof value === 'string') return substitute(value, path);
  if (Array.isArray(value)) return value.map((item, index) => deepMap(item, [...path, index], substitute));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deepMap(item, [...path, key], substitute)]));
  }
  return value;
}
