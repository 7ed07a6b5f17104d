import { readFileSync } from 'node:fs';
import type { ActionContext } from './action-context.js';
import { messageOf } from './triage-facts.js';

/** `e`: opens the scenario file in $EDITOR (the terminal is the editor's meanwhile), then reads the facts again. */
export async function openEditor(context: ActionContext): Promise<void> {
  const { location, problem } = context.facts;
  const file = location?.scenarioFile;
  if (file === undefined) {
    const scenarioId = context.result.scenario_id;
    return context.say(location ? `no file ${scenarioId}.yaml matches the suite's scenarios (${location.config.scenarios})` : `cannot open: ${problem ?? 'the suite is unknown'}`);
  }
  context.setBusy(true);
  try {
    const before = contentOf(file);
    await context.services.openInEditor(file);
    // `:q` without a change is not an edit: say so, so nobody re-runs for nothing.
    context.say(contentOf(file) === before ? `no change to ${context.shown(file)}` : `edited ${context.shown(file)}`);
    if (context.isMounted()) context.reload();
  } catch (error) {
    context.say(`cannot open the editor: ${messageOf(error)}`);
  } finally {
    if (context.isMounted()) context.setBusy(false);
  }
}

/** The file's bytes, or undefined when it cannot be read (then any outcome counts as an edit). */
function contentOf(file: string): string | undefined {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return undefined;
  }
}
