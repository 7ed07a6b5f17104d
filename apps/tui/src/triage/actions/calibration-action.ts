import { relative } from 'node:path';
import { sendScenarioToCalibration } from '@parley/calibration';
import type { ActionContext } from './action-context.js';
import { messageOf, suiteSettingsOf } from './triage-facts.js';

/** `c`: sends the masked transcript to the calibration set as an unrated item (masking and refusals are @parley/calibration's). */
export async function sendToCalibration(context: ActionContext): Promise<void> {
  const { services, facts } = context;
  const { location } = facts;
  if (location === undefined) return context.say(`not sent: ${facts.problem ?? 'the suite is unknown'}`);
  context.setBusy(true);
  context.say('sending the masked transcript to the calibration set…');
  try {
    const outcome = await sendScenarioToCalibration({
      calibrationDir: services.calibrationDir,
      cwd: services.cwd,
      runId: context.runId,
      result: context.result,
      suite: suiteSettingsOf(location),
      ...(location.scenario?.vertical !== undefined ? { vertical: location.scenario.vertical } : {}),
      env: services.env,
      now: services.clock.now(),
    });
    const file = relative(services.cwd, 'file' in outcome ? outcome.file : '') || services.calibrationDir;
    if (outcome.kind === 'added' && outcome.rubric !== undefined) context.say(`sent as ${outcome.id} (new set: edit ${relative(services.cwd, outcome.rubric)} before rating)`);
    else if (outcome.kind === 'added') context.say(`sent to calibration as ${outcome.id} in ${file}`);
    else if (outcome.kind === 'already') context.say(`already in the calibration set as ${outcome.id}`);
    else context.say(`not sent: ${outcome.reason}`);
  } catch (error) {
    context.say(`not sent: ${messageOf(error)}`);
  } finally {
    if (context.isMounted()) context.setBusy(false);
  }
}
