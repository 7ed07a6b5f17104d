import picomatch from 'picomatch';
import type { LoadedScenario, ScenarioFilter } from '@parley/config';
import { scenarioOfCase } from '@parley/core';

export interface ScenarioSelection {
  /** `--scenario GLOB` (repeatable): ids matching any glob are kept. */
  globs?: string[];
  /** `--tag T` (repeatable): scenarios carrying any of these tags are kept. */
  tags?: string[];
  /** `--exclude GLOB` (repeatable): ids matching any of these globs are left out. */
  exclude?: string[];
  /** `--grep TEXT` (repeatable): scenarios whose title or id contains any of these texts, ignoring case. */
  grep?: string[];
}

/** The names one scenario, variant or case answers to. */
interface Candidate {
  /** Matched as written (a variant's brackets are not a glob's character class), as a glob and by --grep. */
  ids: string[];
  /** Matched as globs only: the scenario a variant belongs to. */
  scenarios: string[];
  tags: string[];
  title?: string;
}

/**
 * A predicate for the loader: which scenarios a run takes. Every filter given must hold. A
 * variant (`spa_booking[lang=zu]`) is matched by its own id, written as it is (its brackets are
 * not a glob's character class) or as a glob, and by its scenario's id (`spa_booking`, `spa_*`
 * take every variant).
 */
export function scenarioFilter(selection: ScenarioSelection): ScenarioFilter {
  const matches = candidateMatcher(selection);
  return (scenario) => matches({ ids: [scenario.id], scenarios: scenario.scenario === undefined ? [] : [scenario.scenario], tags: scenario.tags, ...(scenario.title !== undefined ? { title: scenario.title } : {}) });
}

/**
 * The part of a selection the loader applies, before comparison cases exist: a pattern that names
 * a case (`--exclude '*@booking_v2'`, `--grep @booking_v2`) is left to selectCases, which sees the cases.
 */
export function loadingSelection(selection: ScenarioSelection): ScenarioSelection {
  const { globs, grep, exclude, tags } = selection;
  return {
    ...(tags !== undefined ? { tags } : {}),
    ...(globs !== undefined && !globs.some(namesCase) ? { globs } : {}),
    ...(grep !== undefined && !grep.some(namesCase) ? { grep } : {}),
    ...(exclude !== undefined ? { exclude: exclude.filter((glob) => !namesCase(glob)) } : {}),
  };
}

/**
 * The cases of a run that a selection naming cases keeps (a selection without `@` was applied
 * whole by the loader). A case answers to its id (`spa_booking@booking_v2`), to
 * `<scenario>@<agent>` also when the agent is the scenario's own (its id is then the scenario's),
 * and, like a scenario, to its variant's and its scenario's ids.
 */
export function selectCases(cases: readonly LoadedScenario[], selection: ScenarioSelection): LoadedScenario[] {
  const patterns = [...(selection.globs ?? []), ...(selection.grep ?? []), ...(selection.exclude ?? [])];
  if (!patterns.some(namesCase)) return [...cases];
  const matches = candidateMatcher(selection);
  return cases.filter((scenarioCase) => {
    const { id, agent, tags, title } = scenarioCase.data;
    const scenario = scenarioOfCase(id);
    const ids = [...new Set([id, `${scenario}@${agent}`, scenario])];
    return matches({ ids, scenarios: scenarioCase.variant ? [scenarioCase.variant.scenario] : [], tags, ...(title !== undefined ? { title } : {}) });
  });
}

/** `@` names a compared agent; `@(a|b)` is a glob's pattern list. */
function namesCase(pattern: string): boolean {
  return /@(?!\()/.test(pattern);
}

function candidateMatcher(selection: ScenarioSelection): (candidate: Candidate) => boolean {
  const globs = selection.globs?.filter((glob) => glob.length > 0) ?? [];
  const excluded = selection.exclude?.filter((glob) => glob.length > 0) ?? [];
  const texts = (selection.grep ?? []).filter((text) => text.length > 0).map((text) => text.toLowerCase());
  const tags = new Set(selection.tags ?? []);
  const matchesId = globs.length ? idMatcher(globs) : () => true;
  const isExcluded = excluded.length ? idMatcher(excluded) : () => false;
  const matchesText = (candidate: Candidate): boolean =>
    texts.length === 0 ||
    texts.some((text) => candidate.ids.some((id) => id.toLowerCase().includes(text)) || (candidate.title ?? '').toLowerCase().includes(text));
  return (candidate) =>
    matchesId(candidate) && !isExcluded(candidate) && matchesText(candidate) && (tags.size === 0 || candidate.tags.some((tag) => tags.has(tag)));
}

function idMatcher(globs: readonly string[]): (candidate: Candidate) => boolean {
  const glob = picomatch([...globs]);
  const literal = new Set(globs);
  return (candidate) => candidate.ids.some((id) => literal.has(id) || glob(id)) || candidate.scenarios.some((scenario) => glob(scenario));
}
