import type { KeyHint } from '../../components/footer.js';
import type { ActionPrompt } from './action-prompt.js';
import type { TriageFacts } from './triage-facts.js';

/** Characters of the note shown while it is typed (what fits after the question in 80 columns). */
const NOTE_SHOWN = 50;

/**
 * The keys the actions add to the footer, and the status line: the question being asked, else
 * what the last action said, else the scenario's triage state.
 */
export function actionFooter(input: {
  facts: TriageFacts;
  prompt: ActionPrompt | undefined;
  panelOpen: boolean;
  message: string | undefined;
  shown: (file: string) => string;
}): { keys: KeyHint[]; message: string | undefined } {
  const { facts, prompt } = input;
  const { rerecording, flakyMark } = facts;
  const pending = rerecording !== undefined && !rerecording.accepted;
  if (prompt?.kind === 'accept') {
    return {
      keys: [
        ['y', 'accept'],
        ['any other', 'cancel'],
      ],
      message: rerecording ? `Write this run's recording to ${input.shown(rerecording.recordingFile)}? (y/n)` : undefined,
    };
  }
  if (prompt?.kind === 'note') {
    // The end of a long note stays in view: the line is cut at the screen's width.
    const tail = prompt.text.length > NOTE_SHOWN ? `…${prompt.text.slice(1 - NOTE_SHOWN)}` : prompt.text;
    return {
      keys: [
        ['Enter', 'mark flaky'],
        ['Esc', 'cancel'],
      ],
      message: `Why flaky (optional): ${tail}█`,
    };
  }
  const message = input.message ?? stateMessage(facts);
  if (input.panelOpen && rerecording !== undefined) {
    return { keys: [['↑↓', 'scroll'], ...(pending ? ([['a', 'accept']] as const) : []), ['d', 'hide diff'], ['Esc', 'close'], ['q', 'quit']], message };
  }
  return {
    keys: [
      ...(pending ? ([['a', 'accept']] as const) : []),
      ...(rerecording !== undefined ? ([['d', 'diff']] as const) : []),
      ['f', flakyMark ? 'unflaky' : 'flaky'],
      ['c', 'to calibration'],
      ['e', 'edit'],
    ],
    message,
  };
}

/** The scenario's triage state when no action has spoken yet: its flaky mark and its re-recording. */
function stateMessage(facts: TriageFacts): string | undefined {
  const parts: string[] = [];
  if (facts.flakyMark) parts.push(`marked flaky in triage on ${facts.flakyMark.marked_at.slice(0, 10)}${facts.flakyMark.note ? `: ${facts.flakyMark.note}` : ''}`);
  if (facts.rerecording) parts.push(facts.rerecording.accepted ? 're-recorded in this run (accepted)' : 're-recorded in this run: d shows the diff, a accepts it');
  return parts.length > 0 ? parts.join(' · ') : undefined;
}
