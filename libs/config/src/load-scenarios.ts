import { basename, dirname, extname, relative, sep } from 'node:path';
import type { ConfigIssue, ToolDefinition } from '@parley/core';
import { globSync } from 'tinyglobby';
import { readConfigFile, type ParsedConfigFile } from './config-file.js';
import { fluencyMetricFor } from './fluency-metric.js';
import { didYouMean } from './did-you-mean.js';
import type { Expectation } from './expectation-schema.js';
import { checkExpectations, type MetricCatalog } from './expectation-params.js';
import { mergeExpectations } from './merge-expectations.js';
import { unusualMatches } from './unusual-matches.js';
import { ScenarioSchema, type ScenarioFile } from './scenario-schema.js';
import type { SuiteFile } from './suite-schema.js';
import { restrictedVerticalProblem } from './restricted-vertical.js';
import { expandScenario, fillExpectations, hasVariables, inheritedVariables, usedVariableNames, variableNames, variantIssues, withLiteralBraces } from './scenario-variants.js';
import type { DataPath } from './yaml-source.js';

export interface LoadedScenario {
  /** Absolute path of the scenario file. */
  file: string;
  /** The validated scenario (schema defaults applied). */
  data: ScenarioFile;
  /** `gate` of the scenario, else `settings.gate` of the suite, else blocking. */
  gate: 'blocking' | 'advisory';
  /**
   * Suite `defaults.expect`, then the agent's `expect`, then the scenario's own; a narrower
   * levels add up; an expectation with only common keys tunes the broader ones (see mergeExpectations).
   */
  expectations: Expectation[];
  /** For a variant of a scenario with `vars:` / `cases:`: the scenario file's id and the variant's values. */
  variant?: { scenario: string; vars: Record<string, string> };
}

/**
 * Chooses scenarios by id and tags (`--scenario`, `--tag`); every scenario when absent. A variant
 * is offered with its own id (`spa_booking[lang=zu]`) and its file's (`scenario: spa_booking`).
 */
export type ScenarioFilter = (scenario: ScenarioFacts) => boolean;

/** What a filter sees of a scenario or variant. */
export interface ScenarioFacts {
  id: string;
  /** The scenario file's id, for a variant. */
  scenario?: string;
  tags: string[];
  title?: string;
}

export interface ScenarioLoadContext {
  dir: string;
  config: SuiteFile;
  suite: ParsedConfigFile<SuiteFile>;
  catalog: MetricCatalog;
  agentTools: Record<string, ToolDefinition[]>;
  /** Files the scenarios glob may match but that are not scenarios (parley.yaml, metric files). */
  ignore: string[];
  /** `fluency_<language>` → the suite metric that `replaces` it (metrics/*.yaml). */
  fluencyReplacements?: ReadonlyMap<string, string>;
  filter?: ScenarioFilter;
  /** One scenario file (absolute) to load instead of every file the glob matches; it must be one of them. */
  only?: string;
}

export interface ScenariosResult {
  /** Sorted by id. */
  scenarios: LoadedScenario[];
  /** The valid scenarios the filter left out (unchecked against the suite): they still count in the config fingerprint. */
  unselected: ScenarioFile[];
  /** Errors and warnings. */
  issues: ConfigIssue[];
}

/** Path relative to the suite folder with `/` separators, as users write paths in messages. */
export function displayPath(dir: string, file: string): string {
  return relative(dir, file).split(sep).join('/');
}

/**
 * Find the scenario files with the suite's `scenarios` glob and load each: schema, then the
 * cross-checks against the suite (id = file stem, known agent, known metrics and valid metric
 * parameters, unique ids). Scenarios the filter rejects are skipped before their cross-checks,
 * so `--scenario x` is not blocked by a broken unrelated file.
 */
export function loadScenarios(context: ScenarioLoadContext): ScenariosResult {
  const { dir, config, suite } = context;
  const issues: ConfigIssue[] = [];
  const matched = [...new Set([...globSync(config.scenarios, { cwd: dir, absolute: true, onlyFiles: true, ignore: context.ignore }), ...unusualMatches(dir, config.scenarios, context.ignore)])].sort();
  const files = context.only === undefined ? matched : matched.filter((file) => file === context.only);
  if (context.only !== undefined && files.length === 0) {
    const message = `not a scenario of the suite ${displayPath(dirname(context.only), suite.file)}: its scenarios are the files "${config.scenarios}" matches`;
    issues.push({ file: context.only, line: 1, column: 1, message, severity: 'error' });
  } else if (files.length === 0) {
    issues.push(suite.issueAt(['scenarios'], `no scenario files match "${config.scenarios}"`, { severity: 'warning' }));
  }
  const agentNames = Object.keys(config.agents);
  const defaults = config.defaults?.expect ?? [];
  const filesById = new Map<string, { file: string; issueAt: ParsedConfigFile<ScenarioFile>['issueAt'] }[]>();
  const scenarios: LoadedScenario[] = [];
  const unselected: ScenarioFile[] = [];
  const unknownInherited = new Map<string, UnknownInheritedVariable>();

  for (const file of files) {
    const stem = basename(file, extname(file));
    const source = readConfigFile(file, ScenarioSchema, { format: 'yaml' });
    const template = source.data;
    const problems = template === undefined ? [] : variantIssues(template, source);
    // A scenario with variables runs as its variants: each is selected, checked and run on its own.
    const cases = template === undefined || problems.length > 0 ? undefined : expandScenario(template);
    const candidates = cases ?? (template === undefined ? [] : [{ id: template.id, scenario: template.id, data: withLiteralBraces(template), vars: undefined }]);
    const selected = context.filter ? candidates.filter((candidate) => context.filter!(variantFacts(candidate.data, candidate.scenario))) : candidates;
    if (context.filter && (template === undefined ? !context.filter(filterFacts(source, stem)) : selected.length === 0)) {
      unselected.push(...candidates.map((candidate) => candidate.data));
      continue;
    }
    unselected.push(...candidates.filter((candidate) => !selected.includes(candidate)).map((candidate) => candidate.data));
    issues.push(...source.issues, ...problems);
    if (template === undefined) continue;

    if (template.id !== stem) issues.push(source.issueAt(['id'], `the scenario id "${template.id}" must equal the file name "${stem}"`));
    const entries = filesById.get(template.id) ?? [];
    entries.push({ file, issueAt: source.issueAt });
    filesById.set(template.id, entries);
    if (problems.length > 0) continue;

    const agent = Object.hasOwn(config.agents, template.agent) ? config.agents[template.agent] : undefined;
    if (agent === undefined) {
      const suggestion = didYouMean(template.agent, agentNames);
      const known = suggestion || `; the suite's agents are ${agentNames.join(', ')}`;
      issues.push(source.issueAt(['agent'], `unknown agent "${template.agent}"${known}`));
    }
    const broader = new Set([...defaults, ...(agent?.expect ?? [])].map((expectation) => expectation.metric));
    const inherited: Array<{ expectations: readonly Expectation[]; path: DataPath }> = [
      { expectations: defaults, path: ['defaults', 'expect'] },
      { expectations: agent?.expect ?? [], path: ['agents', template.agent, 'expect'] },
    ];
    noteUnknownInherited(unknownInherited, inherited, template);
    issues.push(...unusedVariableIssues(template, inherited, source));
    // Each variant is checked with its own values; a problem every variant has is said once.
    const perVariant = selected.map((candidate) => ({
      id: candidate.id,
      issues: [
        ...languageIssues(candidate.data, template, source),
        ...inheritedParameterIssues(inherited, candidate.vars ?? {}, context),
        ...checkExpectations(candidate.data.expect, ['expect'], source, context.catalog, broader),
        ...scenarioWarnings(candidate.data, source, context),
        ...restrictedVerticalIssues(candidate.data, source, config),
      ],
    }));
    issues.push(...mergeVariantIssues(perVariant, cases !== undefined));

    for (const candidate of selected) {
      scenarios.push({
        file,
        data: candidate.data,
        gate: candidate.data.gate ?? config.settings?.gate ?? 'blocking',
        // parley.yaml's expectations are filled in with the variant's values too, as its own are.
        expectations: mergeExpectations([...inherited.map((level) => fillExpectations(level.expectations, candidate.vars ?? {})), candidate.data.expect]),
        ...(candidate.vars !== undefined ? { variant: { scenario: candidate.scenario, vars: candidate.vars } } : {}),
      });
    }
  }

  for (const [id, entries] of filesById) {
    if (entries.length < 2) continue;
    for (const { file, issueAt } of entries) {
      const others = entries.filter((entry) => entry.file !== file).map((entry) => displayPath(dir, entry.file));
      issues.push(issueAt(['id'], `duplicate scenario id "${id}": also used by ${others.join(', ')}`));
    }
  }

  issues.push(...[...unknownInherited.values()].map((unknown) => suite.issueAtText(unknown.path, unknown.text, unknownInheritedMessage(unknown))));
  scenarios.sort((left, right) => (left.data.id < right.data.id ? -1 : left.data.id > right.data.id ? 1 : 0));
  // A problem of parley.yaml's filled-in expectations that several scenarios share is said once.
  return { scenarios, unselected, issues: onceEach(issues) };
}

/** The issues without repeats (same file, place, severity and message). */
function onceEach(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.file}:${issue.line ?? 0}:${issue.column ?? 0}:${issue.severity}:${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * parley.yaml's expectations with `{{name}}` in their parameters, checked with a variant's values
 * in (a pattern that is only valid once its value is written in, for instance); the others were
 * checked as written with the suite. Each problem is located in parley.yaml.
 */
function inheritedParameterIssues(levels: ReadonlyArray<{ expectations: readonly Expectation[]; path: DataPath }>, vars: Readonly<Record<string, string>>, context: ScenarioLoadContext): ConfigIssue[] {
  const inDefaults = new Set((levels[0]?.expectations ?? []).map((expectation) => expectation.metric));
  return levels.flatMap((level, position) => {
    const filled = fillExpectations(level.expectations, vars);
    const asWritten = (index: number): boolean => !hasVariables(level.expectations[index]!);
    return checkExpectations(filled, level.path, context.suite, context.catalog, position === 0 ? new Set() : inDefaults, asWritten);
  });
}

/**
 * A variable that no `{{name}}` uses, neither in the scenario nor in the expectations it inherits,
 * makes variants that run the same conversation: a warning at its name (an error under --strict).
 */
function unusedVariableIssues(template: ScenarioFile, levels: ReadonlyArray<{ expectations: readonly Expectation[]; path: DataPath }>, source: ParsedConfigFile<ScenarioFile>): ConfigIssue[] {
  const names = variableNames(template);
  if (names.length === 0) return [];
  const used = usedVariableNames(template);
  for (const level of levels) for (const variable of inheritedVariables(level.expectations, level.path)) used.add(variable.name);
  return names
    .filter((name) => !used.has(name))
    .map((name) =>
      source.issueAt(
        template.vars !== undefined ? ['vars', name] : ['cases', 0, name],
        `the variable "${name}" is used by no {{${name}}}: its variants run the same conversation; write {{${name}}} where it belongs (e.g. user.simulate.persona) or remove it`,
        { severity: 'warning', target: 'key' },
      ),
    );
}

/** A `{{name}}` in parley.yaml's expectations and the scenarios inheriting it that have no such variable. */
interface UnknownInheritedVariable {
  path: DataPath;
  text: string;
  name: string;
  scenarios: Array<{ id: string; names: string[] }>;
}

/**
 * Notes each `{{name}}` of the expectations a scenario inherits (suite defaults, its agent's) that
 * the scenario does not define: a scenario without variables inheriting one counts too, since its
 * expectation would check the text `{{name}}` itself.
 */
function noteUnknownInherited(found: Map<string, UnknownInheritedVariable>, levels: ReadonlyArray<{ expectations: readonly Expectation[]; path: DataPath }>, template: ScenarioFile): void {
  const names = variableNames(template);
  for (const level of levels) {
    for (const variable of inheritedVariables(level.expectations, level.path)) {
      if (names.includes(variable.name)) continue;
      const key = `${variable.path.join('\u0000')}\u0000${variable.text}`;
      const entry = found.get(key) ?? { ...variable, scenarios: [] };
      entry.scenarios.push({ id: template.id, names });
      found.set(key, entry);
    }
  }
}

/** Names at most this many scenarios in one message; the rest are counted. */
const LISTED_SCENARIOS = 5;

function unknownInheritedMessage(unknown: UnknownInheritedVariable): string {
  const described = unknown.scenarios
    .slice(0, LISTED_SCENARIOS)
    .map((scenario) => `${scenario.id} (${scenario.names.length > 0 ? `variables: ${scenario.names.join(', ')}` : 'no vars: or cases:'})`);
  const more = unknown.scenarios.length - LISTED_SCENARIOS;
  const list = `${described.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  const one = unknown.scenarios.length === 1;
  return `unknown variable {{${unknown.name}}} for scenario${one ? '' : 's'} ${list}, which inherit${one ? 's' : ''} this expectation: give ${one ? 'it' : 'them'} a "${unknown.name}" variable, or write \\{{${unknown.name}}} for the text itself`;
}

function variantFacts(data: ScenarioFile, scenario: string): ScenarioFacts {
  return { id: data.id, ...(scenario !== data.id ? { scenario } : {}), tags: data.tags, ...(data.title !== undefined ? { title: data.title } : {}) };
}

/**
 * A variant's language (`language: "{{lang}}"`) must be a language code once its value is in.
 */
function languageIssues(data: ScenarioFile, template: ScenarioFile, source: ParsedConfigFile<ScenarioFile>): ConfigIssue[] {
  if (data.language === undefined || /^[a-z]{2,3}$/.test(data.language)) return [];
  return [source.issueAt(['language'], `"${template.language}" gives "${data.language}": use an ISO 639 language code such as en, sw or zu`)];
}

/**
 * The issues of a scenario's variants, each said once: one every variant has as it is, one only
 * some have with the variants it concerns (an expectation parameter that only one row breaks).
 */
function mergeVariantIssues(perVariant: ReadonlyArray<{ id: string; issues: ConfigIssue[] }>, hasVariants: boolean): ConfigIssue[] {
  const byKey = new Map<string, { issue: ConfigIssue; ids: string[] }>();
  for (const { id, issues } of perVariant) {
    for (const issue of issues) {
      const key = `${issue.line ?? 0}:${issue.column ?? 0}:${issue.severity}:${issue.message}`;
      const entry = byKey.get(key);
      if (entry === undefined) byKey.set(key, { issue, ids: [id] });
      else if (!entry.ids.includes(id)) entry.ids.push(id);
    }
  }
  return [...byKey.values()].map(({ issue, ids }) =>
    !hasVariants || ids.length === perVariant.length ? issue : { ...issue, message: `${issue.message} (in ${ids.join(', ')})` },
  );
}

/** Id, tags and title for the filter of a file that did not validate: whatever can be read. */
function filterFacts(source: ParsedConfigFile<ScenarioFile>, stem: string): ScenarioFacts {
  const raw = source.raw !== null && typeof source.raw === 'object' ? source.raw : {};
  const id: unknown = Reflect.get(raw, 'id');
  const tags: unknown = Reflect.get(raw, 'tags');
  const title: unknown = Reflect.get(raw, 'title');
  return {
    id: typeof id === 'string' ? id : stem,
    tags: Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [],
    ...(typeof title === 'string' ? { title } : {}),
  };
}

function scenarioWarnings(data: ScenarioFile, source: ParsedConfigFile<ScenarioFile>, context: ScenarioLoadContext): ConfigIssue[] {
  const warnings: ConfigIssue[] = [];
  const warn = (path: (string | number)[], message: string, target: 'value' | 'key' = 'value'): void => {
    warnings.push(source.issueAt(path, message, { severity: 'warning', target }));
  };
  // A language nothing judges would pass unnoticed; only meaningful when the suite has a judge.
  if (data.language !== undefined && context.config.judge?.primary !== undefined) {
    const fluency = fluencyMetricFor(data.language, (name) => context.catalog.has(name), context.fluencyReplacements ?? new Map());
    if (fluency === undefined) {
      warn(['language'], `no fluency metric judges language "${data.language}": add metrics/fluency_${data.language}.yaml (see the built-in fluency rubrics)`);
    }
  }
  if (data.user.opening === undefined && data.user.script.length === 0 && data.user.simulate === undefined) {
    warn(['user'], 'the scenario has no user turns: give user.opening, user.script or user.simulate');
  }
  const toolNames = (context.agentTools[data.agent] ?? []).map((tool) => tool.name);
  if (toolNames.length > 0) {
    for (const mocked of Object.keys(data.tools)) {
      if (toolNames.includes(mocked)) continue;
      warn(['tools', mocked], `agent "${data.agent}" has no tool "${mocked}"${didYouMean(mocked, toolNames)}`, 'key');
    }
  }
  return warnings;
}

/** docs/privacy.md, "Restricted verticals": a scenario of a restricted vertical without configured redaction extras is refused (`Medical` is `medical`). */
function restrictedVerticalIssues(data: ScenarioFile, source: ParsedConfigFile<ScenarioFile>, config: SuiteFile): ConfigIssue[] {
  const problem = restrictedVerticalProblem(config.redaction, data.vertical);
  return problem === undefined ? [] : [source.issueAt(['vertical'], problem)];
}
