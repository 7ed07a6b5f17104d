import { escapeVariables, type Expectation, type ScenarioFile } from '@parley/config';
import { turnActions, type SgdDialogue } from './sgd-dataset.js';

/** The tag of every scenario made from a dataset, so `parley run --tag from_dataset` runs them. */
export const DATASET_TAG = 'from_dataset';

/** What the SGD services of the booking subset are about, for titles. */
const SERVICE_NAMES: Record<string, string> = {
  Services_1: 'salon',
  Services_2: 'dentist',
  Services_3: 'doctor',
  Services_4: 'therapist',
  Restaurants_1: 'restaurant',
  Restaurants_2: 'restaurant',
};

export interface DatasetScenario {
  scenario: ScenarioFile;
  /** Comment lines for the top of the file. */
  header: string;
}

/**
 * `sgd_train_29_00053`: stable (the same dialogue gives the same id) and a valid scenario id. SGD
 * numbers its dialogues per split, so `1_00000` is in train, dev and test alike: the split is part
 * of the id wherever it is known (`sgdSplit`), or the second split would be refused as "already there".
 */
export function sgdScenarioId(dialogueId: string, split?: string): string {
  return `sgd_${split !== undefined ? `${split}_` : ''}${dialogueId.toLowerCase().replace(/[^a-z0-9_-]+/g, '_')}`;
}

const SPLITS = ['train', 'dev', 'test'] as const;

/**
 * The SGD split a dialogue comes from: the folder of its `source_file` (extracts keep the original
 * file, `train/dialogues_029.json`), else a `train`/`dev`/`test` folder in the dataset file's path.
 */
export function sgdSplit(dialogue: SgdDialogue, datasetFile: string): string | undefined {
  for (const path of [dialogue.source_file, datasetFile]) {
    if (path === undefined) continue;
    const folders = path.split(/[\\/]/).slice(0, -1);
    const split = folders.reverse().find((folder): folder is (typeof SPLITS)[number] => (SPLITS as readonly string[]).includes(folder));
    if (split !== undefined) return split;
  }
  return undefined;
}

/**
 * A scripted scenario from an SGD dialogue. The user's utterances become `user.opening` and
 * `user.script` (consecutive user turns joined; system turns before the first user turn left out).
 * The system's utterances are the dataset's golden replies: they go to `reference.replies`, per
 * user turn, where reviewers and judges read them — an agent is not expected to say the same words,
 * and cannot know the dataset's database (salon names, phone numbers). With a judge in the suite,
 * one `conversation_judge` expectation states what the user asked for and which details they gave,
 * from the dialogue's acts, and whether the dataset's system succeeded.
 */
export function sgdScenario(dialogue: SgdDialogue, input: { agent: string; hasJudge: boolean; source: string; split?: string }): DatasetScenario | { problem: string } {
  const userTurns: string[] = [];
  const replies: Array<{ turn: number; content: string }> = [];
  for (const turn of dialogue.turns) {
    const text = turn.utterance.trim();
    if (text === '') continue;
    if (turn.speaker === 'USER') {
      if (userTurns.length > 0 && (replies.at(-1)?.turn ?? 0) < userTurns.length) userTurns[userTurns.length - 1] += `\n${text}`;
      else userTurns.push(text);
      continue;
    }
    if (userTurns.length === 0) continue;
    const last = replies.at(-1);
    if (last?.turn === userTurns.length) last.content += `\n${text}`;
    else replies.push({ turn: userTurns.length, content: text });
  }
  if (userTurns.length === 0) return { problem: 'no user turn' };

  const service = dialogue.services[0];
  const domain = service !== undefined ? (SERVICE_NAMES[service] ?? service) : 'dialogue';
  const intents = userIntents(dialogue);
  const expect: Expectation[] = input.hasJudge ? [{ metric: 'conversation_judge', criteria: judgeCriteria(dialogue, intents), threshold: 0.7 }] : [];
  // The dataset's `{{…}}`, if any, is text, not a variable of the scenario.
  const scenario: ScenarioFile = escapeVariables({
    id: sgdScenarioId(dialogue.dialogue_id, input.split),
    title: `SGD ${domain} dialogue ${dialogue.dialogue_id}${intents.length > 0 ? `: ${intents.map(words).join(', then ')}` : ''}`,
    agent: input.agent,
    language: 'en',
    tags: [DATASET_TAG, 'sgd', ...(service !== undefined ? [service.toLowerCase()] : [])],
    gate: 'advisory',
    metadata_only: false,
    user: { opening: userTurns[0]!, script: userTurns.slice(1) },
    tools: {},
    expect,
    reference: { source: input.source, replies },
  });
  const header = [
    `Drafted by \`parley generate --from-dataset\` from SGD dialogue ${dialogue.dialogue_id} of the Schema-Guided`,
    'Dialogue dataset (Rastogi et al., AAAI 2020), licensed CC BY-SA 4.0: keep this attribution and',
    "license when you share it. The user turns are the dataset's; reference.replies are its system's",
    'replies, for reviewers and judges. Review it (mock the tools your agent calls, add expectations),',
    'record it, then make it blocking.',
  ].join('\n');
  return { scenario, header };
}

/** The intents the user expressed, in order (`FindProvider`, `BookAppointment`). */
function userIntents(dialogue: SgdDialogue): string[] {
  const intents: string[] = [];
  for (const turn of dialogue.turns) {
    if (turn.speaker !== 'USER') continue;
    for (const action of turnActions(turn)) {
      if (action.act !== 'INFORM_INTENT') continue;
      for (const value of action.values) if (!intents.includes(value)) intents.push(value);
    }
  }
  return intents;
}

function judgeCriteria(dialogue: SgdDialogue, intents: readonly string[]): string {
  // A slot the user informs again replaces what they said before: after a failed booking the user
  // picks another time, and only the time that was finally asked for is a detail to hold them to.
  const details = new Map<string, string>();
  const acts: string[] = [];
  for (const turn of dialogue.turns) {
    for (const action of turnActions(turn)) {
      if (turn.speaker === 'SYSTEM') acts.push(action.act);
      if (turn.speaker !== 'USER' || action.act !== 'INFORM' || action.values.length === 0) continue;
      details.delete(action.slot);
      details.set(action.slot, `${words(action.slot)}: ${action.values.map(slotValue).join(' or ')}`);
    }
  }
  return [
    intents.length > 0 ? `The user wants to ${intents.map(words).join(', then ')}.` : 'The user asks for help with a booking.',
    details.size > 0 ? `They give these details: ${[...details.values()].join('; ')}.` : '',
    'The assistant uses the details it was given without asking for them again, asks for what is missing one question at a time, confirms the details before completing a booking, and says clearly whether it succeeded.',
    outcome(acts),
  ]
    .filter((sentence) => sentence !== '')
    .join(' ');
}

/** The dataset's outcome, from the system's last notification (a failure may be followed by a success). */
function outcome(systemActs: readonly string[]): string {
  const notifications = systemActs.filter((act) => act === 'NOTIFY_SUCCESS' || act === 'NOTIFY_FAILURE');
  const last = notifications.at(-1);
  if (last === 'NOTIFY_SUCCESS') {
    return notifications.includes('NOTIFY_FAILURE')
      ? 'In the reference dialogue a first request failed, the user changed the details, and the request then succeeded.'
      : 'In the reference dialogue the request succeeded.';
  }
  return last === 'NOTIFY_FAILURE' ? 'In the reference dialogue the request failed and the system said so.' : '';
}

/**
 * SGD writes booleans as `True`/`False`, and `dontcare` where the user has no preference: a judge
 * reads "any", never the dataset's sentinel.
 */
function slotValue(value: string): string {
  if (value === 'dontcare') return 'any (no preference)';
  return value === 'True' ? 'yes' : value === 'False' ? 'no' : value;
}

/** `BookAppointment` → `book appointment`, `appointment_time` → `appointment time`. */
function words(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
}
