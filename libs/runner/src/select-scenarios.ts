import picomatch from 'picomatch';

export interface ScenarioSelection {
  /** `--scenario GLOB` (repeatable): ids matching any glob are kept. */
  globs?: string[];
  /** `--tag T` (repeatable): scenarios carrying any of these tags are kept. */
  tags?: string[];
}

/** A predicate for the loader: which scenarios a run takes. Both filters must hold when both are given. */
export function scenarioFilter(selection: ScenarioSelection): (scenario: { id: string; tags: string[] }) => boolean {
  const globs = selection.globs?.filter((glob) => glob.length > 0) ?? [];
  const tags = new Set(selection.tags ?? []);
  const matchesId = globs.length ? picomatch(globs) : () => true;
  return (scenario) => matchesId(scenario.id) && (tags.size === 0 || scenario.tags.some((tag) => tags.has(tag)));
}
