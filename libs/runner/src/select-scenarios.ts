import picomatch from 'picomatch';

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

/** A predicate for the loader: which scenarios a run takes. Every filter given must hold. */
export function scenarioFilter(selection: ScenarioSelection): (scenario: { id: string; tags: string[]; title?: string }) => boolean {
  const globs = selection.globs?.filter((glob) => glob.length > 0) ?? [];
  const excluded = selection.exclude?.filter((glob) => glob.length > 0) ?? [];
  const texts = (selection.grep ?? []).filter((text) => text.length > 0).map((text) => text.toLowerCase());
  const tags = new Set(selection.tags ?? []);
  const matchesId = globs.length ? picomatch(globs) : () => true;
  const isExcluded = excluded.length ? picomatch(excluded) : () => false;
  const matchesText = (scenario: { id: string; title?: string }): boolean =>
    texts.length === 0 || texts.some((text) => scenario.id.toLowerCase().includes(text) || (scenario.title ?? '').toLowerCase().includes(text));
  return (scenario) =>
    matchesId(scenario.id) && !isExcluded(scenario.id) && matchesText(scenario) && (tags.size === 0 || scenario.tags.some((tag) => tags.has(tag)));
}
