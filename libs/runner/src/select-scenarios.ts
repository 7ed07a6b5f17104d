import picomatch from 'picomatch';
import type { ScenarioFilter } from '@parley/config';

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

/**
 * A predicate for the loader: which scenarios a run takes. Every filter given must hold. A
 * variant (`spa_booking[lang=zu]`) is matched by its own id, written as it is (its brackets are
 * not a glob's character class) or as a glob, and by its scenario's id (`spa_booking`, `spa_*`
 * take every variant).
 */
export function scenarioFilter(selection: ScenarioSelection): ScenarioFilter {
  const globs = selection.globs?.filter((glob) => glob.length > 0) ?? [];
  const excluded = selection.exclude?.filter((glob) => glob.length > 0) ?? [];
  const texts = (selection.grep ?? []).filter((text) => text.length > 0).map((text) => text.toLowerCase());
  const tags = new Set(selection.tags ?? []);
  const matchesId = globs.length ? idMatcher(globs) : () => true;
  const isExcluded = excluded.length ? idMatcher(excluded) : () => false;
  const matchesText = (scenario: { id: string; title?: string }): boolean =>
    texts.length === 0 || texts.some((text) => scenario.id.toLowerCase().includes(text) || (scenario.title ?? '').toLowerCase().includes(text));
  return (scenario) =>
    matchesId(scenario) && !isExcluded(scenario) && matchesText(scenario) && (tags.size === 0 || scenario.tags.some((tag) => tags.has(tag)));
}

function idMatcher(globs: readonly string[]): (scenario: { id: string; scenario?: string }) => boolean {
  const glob = picomatch([...globs]);
  const literal = new Set(globs);
  return (scenario) => literal.has(scenario.id) || glob(scenario.id) || (scenario.scenario !== undefined && glob(scenario.scenario));
}
