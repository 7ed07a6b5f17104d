import { acceptRerecording, rerecordingGap } from '@parley/runner';
import type { ActionContext } from './action-context.js';
import { messageOf, type TriageFacts } from './triage-facts.js';

/**
 * `a`: asks (`askConfirm`) before the run's re-recording replaces the suite's recording, unless
 * there is none, it is accepted already, or it cannot stand in for the recording (the rule is
 * @parley/runner's `rerecordingGap`).
 */
export function askAccept(context: ActionContext, askConfirm: () => void): void {
  const { facts } = context;
  const { rerecording } = facts;
  if (rerecording === undefined) return context.say(noRerecording(facts));
  if (rerecording.accepted) return context.say(`already accepted: ${context.shown(rerecording.recordingFile)} is this run's recording`);
  const gap = rerecordingGap(context.result, judgeModeOf(facts));
  if (gap !== undefined) return context.say(`cannot accept: ${gap}; use --mode record`);
  askConfirm();
}

/** `y` after `a`: the re-recording becomes the suite's recording. */
export function accept(context: ActionContext): void {
  const { rerecording } = context.facts;
  if (rerecording === undefined) return;
  try {
    const judgeMode = judgeModeOf(context.facts);
    const outcome = acceptRerecording(rerecording, { result: context.result, ...(judgeMode !== undefined ? { judgeMode } : {}) });
    context.say(outcome.accepted ? `accepted: ${context.shown(outcome.file)} now holds this run's recording` : `cannot accept: ${outcome.reason}`);
  } catch (error) {
    context.say(`cannot accept: ${messageOf(error)}`);
  }
  context.reload();
}

/** Why there is no re-recording to show or accept. */
export function noRerecording(facts: TriageFacts): string {
  if (facts.run === undefined || facts.location === undefined) return `no re-recording: ${facts.problem ?? 'the run is unknown'}`;
  if (facts.run.mode === 'replay') return 'no re-recording: a replay run records nothing (live and record runs do)';
  return 'no re-recording: this run kept no recording of this scenario';
}

function judgeModeOf(facts: TriageFacts): string | undefined {
  const judge = facts.run?.options['judge'];
  return typeof judge === 'string' ? judge : undefined;
}
