/**
 * In a comparison run (`parley run --agent A --agent B`, or `matrix:` in parley.yaml) one scenario
 * runs once per agent. Each (scenario, agent) pair is a case with an id of its own: the scenario's
 * id when the agent is the scenario's own (so its results, recording and baseline entries are the
 * same as in an ordinary run), `<scenario>@<agent>` otherwise. Scenario ids (a variant's,
 * `spa_booking[lang=zu]`, too) and agent names never contain `@`, so the id always splits back
 * into its two parts.
 *
 * That id keys everything kept per result: store rows, the recording file, baseline entries and
 * the shard a case falls into.
 *
 * @example caseId('spa_booking', 'booking_v2', 'booking') // 'spa_booking@booking_v2'
 */
export function caseId(scenarioId: string, agent: string, ownAgent: string): string {
  return agent === ownAgent ? scenarioId : `${scenarioId}${CASE_SEPARATOR}${agent}`;
}

/** The scenario a case id belongs to: `spa_booking@booking_v2` → `spa_booking`; a plain scenario id is itself. */
export function scenarioOfCase(id: string): string {
  const at = id.indexOf(CASE_SEPARATOR);
  return at === -1 ? id : id.slice(0, at);
}

/**
 * The scenario file's id for a case id, without a variant's values or a compared agent:
 * `spa_booking[lang=zu]@booking_v2` → `spa_booking`. A plain scenario id is itself.
 */
export function scenarioFileId(id: string): string {
  const end = id.search(/[[@]/);
  return end === -1 ? id : id.slice(0, end);
}

const CASE_SEPARATOR = '@';
