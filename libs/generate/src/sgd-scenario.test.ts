import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ScenarioSchema, withLiteralBraces } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { SgdFileSchema, sgdDialogues, type SgdDialogue } from './sgd-dataset.js';
import { sgdScenario, sgdScenarioId, sgdSplit } from './sgd-scenario.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/generate/data/sgd_salon_dialogues.json', import.meta.url));
const dialogues = sgdDialogues(SgdFileSchema.parse(JSON.parse(readFileSync(EXAMPLE, 'utf8'))));

function scenarioOf(dialogue: SgdDialogue, hasJudge = true) {
  const split = sgdSplit(dialogue, 'x.json');
  const built = sgdScenario(dialogue, { agent: 'salon', hasJudge, source: `sgd:x.json#${dialogue.dialogue_id}`, ...(split !== undefined ? { split } : {}) });
  if ('problem' in built) throw new Error(built.problem);
  return built.scenario;
}

describe('sgdScenario', () => {
  it("scripts the user's turns and keeps the system's as reference replies per user turn", () => {
    const dialogue = dialogues[0]!;
    const scenario = scenarioOf(dialogue);
    const userTurns = dialogue.turns.filter((turn) => turn.speaker === 'USER').map((turn) => turn.utterance);
    expect(scenario.user.opening).toBe(userTurns[0]);
    expect(scenario.user.script).toEqual(userTurns.slice(1));
    expect(scenario.reference?.replies[0]).toEqual({ turn: 1, content: 'What city should I go to look for it?' });
    expect(scenario.reference?.replies).toHaveLength(userTurns.length);
    expect(scenario).toMatchObject({ id: 'sgd_train_29_00053', agent: 'salon', language: 'en', gate: 'advisory', tags: ['from_dataset', 'sgd', 'services_1'] });
    expect(ScenarioSchema.safeParse(scenario).success).toBe(true);
  });

  it("states the user's intents and details in the judge's criteria, and the dataset's outcome", () => {
    const [expectation] = scenarioOf(dialogues[0]!).expect;
    expect(expectation).toMatchObject({ metric: 'conversation_judge', threshold: 0.7 });
    expect(expectation?.criteria).toMatch(/^The user wants to find provider, then book appointment\. They give these details: is unisex: yes; city: Concord; appointment time: 18:30; appointment date: March 13th\./);
    expect(expectation?.criteria).toMatch(/the request succeeded\.$/);
  });

  it('adds no judged expectation to a suite without a judge', () => {
    expect(scenarioOf(dialogues[0]!, false).expect).toEqual([]);
  });

  it('keeps a {{…}} the user wrote as text: escaped in the file, the braces themselves when loaded', () => {
    const scenario = scenarioOf({ dialogue_id: 'x_2', services: [], turns: [{ speaker: 'USER', utterance: 'My name is {{first_name}}.' }] });
    expect(scenario.user.opening).toBe('My name is \\{{first_name}}.');
    expect(withLiteralBraces(scenario).user.opening).toBe('My name is {{first_name}}.');
  });

  it('joins consecutive user turns and leaves out system turns before the first user turn', () => {
    const scenario = scenarioOf({
      dialogue_id: 'x_1',
      services: [],
      turns: [
        { speaker: 'SYSTEM', utterance: 'Welcome!' },
        { speaker: 'USER', utterance: 'Hi.' },
        { speaker: 'USER', utterance: 'I need a haircut.' },
        { speaker: 'SYSTEM', utterance: 'Where?' },
        { speaker: 'SYSTEM', utterance: 'Which city?' },
        { speaker: 'USER', utterance: 'Concord.' },
      ],
    });
    expect(scenario.user).toMatchObject({ opening: 'Hi.\nI need a haircut.', script: ['Concord.'] });
    expect(scenario.reference?.replies).toEqual([{ turn: 1, content: 'Where?\nWhich city?' }]);
  });

  it('reads the acts of the original files, kept per frame', () => {
    const scenario = scenarioOf({
      dialogue_id: '1_00001',
      services: ['Restaurants_1'],
      turns: [{ speaker: 'USER', utterance: 'A table for two in Napa.', frames: [{ service: 'Restaurants_1', actions: [{ act: 'INFORM_INTENT', slot: 'intent', values: ['ReserveRestaurant'] }] }] }],
    });
    expect(scenario.title).toBe('SGD restaurant dialogue 1_00001: reserve restaurant');
  });

  it('gives a stable, valid id, with the split where it is known', () => {
    expect(sgdScenarioId('29_00053')).toBe('sgd_29_00053');
    expect(sgdScenarioId('Dialogue 7.b')).toBe('sgd_dialogue_7_b');
    expect(sgdScenarioId('1_00000', 'dev')).toBe('sgd_dev_1_00000');
  });

  it("tells the split from the dialogue's source file, else from the dataset's folder", () => {
    const dialogue = { dialogue_id: '1_00000', services: [], turns: [{ speaker: 'USER' as const, utterance: 'Hi' }] };
    expect(sgdSplit({ ...dialogue, source_file: 'test/dialogues_001.json' }, 'data/x.json')).toBe('test');
    expect(sgdSplit(dialogue, '/data/sgd/dev/dialogues_001.json')).toBe('dev');
    expect(sgdSplit(dialogue, 'C:\\sgd\\train\\dialogues_001.json')).toBe('train');
    expect(sgdSplit(dialogue, '/data/sgd/dialogues_001.json')).toBeUndefined();
    // The same dialogue number in two splits gives two scenarios.
    const ids = ['train', 'dev'].map((split) => scenarioOf({ ...dialogue, source_file: `${split}/dialogues_001.json` }).id);
    expect(ids).toEqual(['sgd_train_1_00000', 'sgd_dev_1_00000']);
  });

  it("writes SGD's dontcare as no preference, never the sentinel", () => {
    const scenario = scenarioOf({
      dialogue_id: '3_00082',
      services: ['Restaurants_1'],
      turns: [
        { speaker: 'USER', utterance: 'Find me a place to eat in Palo Alto, any price is fine.', actions: [{ act: 'INFORM', slot: 'city', values: ['Palo Alto'] }, { act: 'INFORM', slot: 'price_range', values: ['dontcare'] }, { act: 'INFORM_INTENT', slot: 'intent', values: ['FindRestaurants'] }] },
        { speaker: 'SYSTEM', utterance: 'What kind of food?' },
      ],
    });
    const criteria = scenario.expect[0]?.criteria ?? '';
    expect(criteria).toContain('price range: any (no preference)');
    expect(criteria).not.toMatch(/dontcare/i);
  });

  it('after a failed booking holds the user to the details they gave last, and says the request then succeeded', () => {
    const scenario = scenarioOf({
      dialogue_id: '29_00100',
      services: ['Services_1'],
      turns: [
        { speaker: 'USER', utterance: 'Book Bibbidi Bobbidi Bibbidi at 10:30 am.', actions: [{ act: 'INFORM_INTENT', slot: 'intent', values: ['BookAppointment'] }, { act: 'INFORM', slot: 'appointment_time', values: ['10:30'] }] },
        { speaker: 'SYSTEM', utterance: 'Sorry, that slot is taken. Another time?', actions: [{ act: 'NOTIFY_FAILURE', slot: '', values: [] }] },
        { speaker: 'USER', utterance: 'Then 11 am please.', actions: [{ act: 'INFORM', slot: 'appointment_time', values: ['11:00'] }] },
        { speaker: 'SYSTEM', utterance: 'Your appointment is booked.', actions: [{ act: 'NOTIFY_SUCCESS', slot: '', values: [] }] },
      ],
    });
    const criteria = scenario.expect[0]?.criteria ?? '';
    expect(criteria).toContain('They give these details: appointment time: 11:00.');
    expect(criteria).not.toContain('10:30');
    expect(criteria).toMatch(/a first request failed, the user changed the details, and the request then succeeded\.$/);
  });

  it('has no scenario without a user turn', () => {
    expect(sgdScenario({ dialogue_id: 'e', services: [], turns: [{ speaker: 'SYSTEM', utterance: 'Hello?' }] }, { agent: 'a', hasJudge: false, source: 's' })).toEqual({ problem: 'no user turn' });
  });
});
