import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ScenarioSchema } from '@parley/config';
import { describe, expect, it } from 'vitest';
import { SgdFileSchema, sgdDialogues, type SgdDialogue } from './sgd-dataset.js';
import { sgdScenario, sgdScenarioId } from './sgd-scenario.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/generate/data/sgd_salon_dialogues.json', import.meta.url));
const dialogues = sgdDialogues(SgdFileSchema.parse(JSON.parse(readFileSync(EXAMPLE, 'utf8'))));

function scenarioOf(dialogue: SgdDialogue, hasJudge = true) {
  const built = sgdScenario(dialogue, { agent: 'salon', hasJudge, source: `sgd:x.json#${dialogue.dialogue_id}` });
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
    expect(scenario).toMatchObject({ id: 'sgd_29_00053', agent: 'salon', language: 'en', gate: 'advisory', tags: ['from_dataset', 'sgd', 'services_1'] });
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

  it('gives a stable, valid id', () => {
    expect(sgdScenarioId('29_00053')).toBe('sgd_29_00053');
    expect(sgdScenarioId('Dialogue 7.b')).toBe('sgd_dialogue_7_b');
  });

  it('has no scenario without a user turn', () => {
    expect(sgdScenario({ dialogue_id: 'e', services: [], turns: [{ speaker: 'SYSTEM', utterance: 'Hello?' }] }, { agent: 'a', hasJudge: false, source: 's' })).toEqual({ problem: 'no user turn' });
  });
});
