import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { toYamlText, type ScenarioFile } from '@parley/config';
import { writeNewFileAtomically } from '@parley/core';

export interface PlannedScenario {
  scenario: ScenarioFile;
  header: string;
  /** Where it came from, for the summary (`dialogues.json#29_00053`, `draft 3`). */
  source: string;
}

export interface WrittenScenario {
  id: string;
  file: string;
  source: string;
  title: string;
  /** Set when the drafted id was taken and another was used. */
  renamed_from?: string;
}

export interface SkippedScenario {
  source: string;
  id: string;
  reason: string;
}

/**
 * When a scenario's id is taken (a file in the folder, or a scenario of the suite): `rename` picks
 * the first free `<id>_2`, `<id>_3` … (drafts from a description: their ids are invented anyway);
 * `skip` leaves it out and says so (datasets: the same dialogue always gives the same id, so a
 * second run adds only what is new, as `parley promote` does).
 */
export type TakenIdPolicy = 'rename' | 'skip';

/**
 * Writes each scenario to `<dir>/<id>.yaml`. Never overwrites: files are created exclusively, so
 * not even a concurrent command can have one replaced.
 */
export function writeScenarios(
  planned: readonly PlannedScenario[],
  input: { dir: string; takenIds: ReadonlySet<string>; policy: TakenIdPolicy; displayPath: (file: string) => string },
): { written: WrittenScenario[]; skipped: SkippedScenario[] } {
  if (planned.length > 0) mkdirSync(input.dir, { recursive: true });
  const taken = new Set(input.takenIds);
  const written: WrittenScenario[] = [];
  const skipped: SkippedScenario[] = [];
  for (const item of planned) {
    const drafted = item.scenario.id;
    for (let attempt = 1; ; attempt += 1) {
      const id = attempt === 1 ? drafted : `${drafted}_${attempt}`;
      const file = join(input.dir, `${id}.yaml`);
      const clash = taken.has(id) ? `the suite has a scenario "${id}"` : createExclusively(file, scenarioYaml({ ...item.scenario, id }, item.header));
      if (clash === undefined) {
        taken.add(id);
        written.push({ id, file, source: item.source, title: item.scenario.title ?? id, ...(id !== drafted ? { renamed_from: drafted } : {}) });
        break;
      }
      if (input.policy === 'skip') {
        skipped.push({ source: item.source, id, reason: `already there: ${clash === 'exists' ? `${input.displayPath(file)} exists` : clash}` });
        break;
      }
    }
  }
  return { written, skipped };
}

/** The scenario as a file: the schema's defaults left out, the header as a comment. */
function scenarioYaml(scenario: ScenarioFile, header: string): string {
  const { id, title, agent, language, tags, gate, vertical, metadata_only: metadataOnly, user, tools, expect, reference, ...others } = scenario;
  const { script, ...userRest } = user;
  const written = {
    id,
    ...(title !== undefined ? { title } : {}),
    agent,
    ...(language !== undefined ? { language } : {}),
    tags,
    ...(gate !== undefined ? { gate } : {}),
    ...(vertical !== undefined ? { vertical } : {}),
    ...(metadataOnly ? { metadata_only: true } : {}),
    ...others,
    user: { ...userRest, ...(script.length > 0 ? { script } : {}) },
    ...(Object.keys(tools).length > 0 ? { tools } : {}),
    expect,
    ...(reference !== undefined ? { reference } : {}),
  };
  return toYamlText(written, { headerComment: header });
}

function createExclusively(file: string, text: string): 'exists' | undefined {
  try {
    writeNewFileAtomically(file, text);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return 'exists';
    throw error;
  }
}
