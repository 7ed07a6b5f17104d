import type { LoadedSuite } from '@parley/config';
import { startFakeLangfuse, type FakeLangfuse } from '@parley/fake-langfuse';
import { langfuseClient } from '@parley/langfuse';
import { createRedactor } from '@parley/redaction';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationTraces } from './conversation-trace.js';
import { datasetItemId, datasetScenarios, exportDataset } from './langfuse-dataset.js';
import { promptAgentResult, sampleReport } from './test-support/sample-report.js';

const KEYS = { publicKey: 'pk-lf-ds', secretKey: 'sk-lf-ds' };

let server: FakeLangfuse | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Two scenarios as a loaded suite holds them: one with a customer's name and e-mail in its opening, one metadata_only. */
function suite(): LoadedSuite {
  const scenario = (id: string, metadataOnly: boolean, opening: string) => ({
    file: `/suite/scenarios/${id}.yaml`,
    gate: 'blocking' as const,
    data: { id, title: `Books for Grace (${id})`, agent: 'booking', tags: ['booking'], metadata_only: metadataOnly, user: { opening, script: ['Saturday, 10:00'] }, tools: {}, expect: [] },
    expectations: [{ metric: 'content_signals', required: ['BK-1042'] }, { metric: 'conversation_judge', threshold: 0.7 }],
  });
  return { scenarios: [scenario('spa_happy', false, 'Hi, I am Grace, grace@example.com'), scenario('clinic_private', true, 'My HIV results, please')] } as unknown as LoadedSuite;
}

describe('datasetScenarios and exportDataset', () => {
  it('masks the input through the suite\'s redactor, and keeps nothing but metric names of a metadata_only scenario', () => {
    const scenarios = datasetScenarios(suite(), createRedactor({ names: ['Grace'] }));
    const happy = scenarios.get('spa_happy')!;
    expect(JSON.stringify(happy)).not.toMatch(/Grace|grace@example\.com/);
    expect(happy.input).toEqual({ opening: expect.stringContaining('Hi, I am'), script: ['Saturday, 10:00'] });
    expect(happy.expected).toEqual([{ metric: 'content_signals', required: ['BK-1042'] }, { metric: 'conversation_judge', threshold: 0.7 }]);
    const withheld = scenarios.get('clinic_private')!;
    expect(withheld.input).toBeUndefined();
    expect(withheld.title).toBeUndefined();
    expect(withheld.expected).toEqual([{ metric: 'content_signals' }, { metric: 'conversation_judge' }]);
    expect(JSON.stringify(withheld)).not.toContain('HIV');
  });

  it('masks a name the opening introduces wherever the user side repeats it (a simulated persona, the title)', () => {
    const withPersona = {
      scenarios: [
        {
          file: '/suite/scenarios/sim_desk.yaml',
          gate: 'blocking' as const,
          data: {
            id: 'sim_desk',
            title: 'Kagiso moves a booking',
            agent: 'desk',
            tags: [],
            metadata_only: false,
            user: { opening: "Hi, I'm Kagiso Molefe and I need to move my booking.", script: [], simulate: { persona: 'Kagiso Molefe, a busy nurse from Soweto.', goal: 'Move it to Monday; Molefe is on night shift.', max_turns: 2 } },
            tools: {},
            expect: [],
          },
          expectations: [],
        },
      ],
    } as unknown as LoadedSuite;
    const item = datasetScenarios(withPersona, createRedactor()).get('sim_desk')!;
    expect(JSON.stringify(item)).not.toMatch(/Kagiso|Molefe/);
    expect(item.input?.simulate?.persona).toBe('<name>, a busy nurse from Soweto.');
  });

  it('sends only fields of the API (the fake refuses others), with stable item ids per dataset', async () => {
    server = await startFakeLangfuse({ ...KEYS, scores: [] });
    const report = sampleReport([promptAgentResult(false)]);
    const traces = conversationTraces(report);
    const summary = await exportDataset(langfuseClient({ baseUrl: server.url, ...KEYS }), report, traces, { name: 'booking' });
    expect(summary).toEqual({ dataset: 'booking', items: 1, runs: ['run-1@booking'], linked: 1 });
    expect(server.requests.every((request) => request.status === 200 || request.status === 404)).toBe(true);
    expect(server.datasets().items.map((item) => item.id)).toEqual([datasetItemId('booking', 'spa_happy')]);
    expect(datasetItemId('other', 'spa_happy')).not.toBe(datasetItemId('booking', 'spa_happy'));
  });
});
