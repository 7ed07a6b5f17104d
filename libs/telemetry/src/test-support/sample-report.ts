import type { RunReport } from '@parley/reports';

type Result = RunReport['results'][number];

/** A prompt agent's scenario: a tool round, then the answer; a judge and a pass/fail metric. */
export function promptAgentResult(metadataOnly: boolean): Result {
  return {
    scenario_id: 'spa_happy',
    agent: 'booking',
    gate: 'blocking',
    tags: ['booking'],
    status: 'pass',
    reason: 'all expectations met',
    metadata_only: metadataOnly,
    metrics: [
      { metric: 'conversation_judge', version: '1.0.0', score: 0.9, threshold: 0.7, passed: true, reason: 'warm' },
      { metric: 'content_signals', version: '1.0.0', score: null, threshold: null, passed: false, reason: 'missing BK-1042' },
      { metric: 'tool_correctness', version: '1.0.0', score: 1, threshold: 1, passed: true, reason: 'all tools called' },
    ],
    cost: { input_tokens: 30, output_tokens: 12, usd: 0.01, calls: 3 },
    calls: [
      // What the provider said (answering model, stop reason) and where it was: a run keeps it with each call.
      { role: 'agent', provider: 'openai', model: 'gpt-4.1-mini', turn: 1, input_tokens: 10, output_tokens: 4, cost_usd: 0.001, latency_ms: 120, response_model: 'gpt-4.1-mini-2025-04-14', finish_reason: 'tool_calls', server_address: 'api.openai.com', server_port: 443 },
      // A call of a report written before runs kept those: nothing to say, so nothing is sent.
      { role: 'agent', provider: 'openai', model: 'gpt-4.1-mini', turn: 1, input_tokens: 12, output_tokens: 5, cost_usd: 0.001, latency_ms: 80, cached_input_tokens: 6 },
      { role: 'judge', provider: 'anthropic', model: 'claude-sonnet-4-6', turn: 0, input_tokens: 8, output_tokens: 3, cost_usd: 0.008, latency_ms: 300, response_model: 'claude-sonnet-4-6', finish_reason: 'end_turn', server_address: '127.0.0.1', server_port: 8787 },
    ],
    ...(metadataOnly
      ? {}
      : {
          transcript: {
            ended_by: 'script',
            turns: [
              { role: 'user', content: 'Nataka massage', turn: 1 },
              { role: 'assistant', content: '', turn: 1, tool_calls: [{ id: 'call_1', name: 'check_availability', args: { day: 'saturday' } }] },
              { role: 'tool', content: '{"slots":["10:00"]}', turn: 1, tool_name: 'check_availability' },
              { role: 'assistant', content: 'Saa nne inafaa?', turn: 1 },
            ],
          },
        }),
  } as Result;
}

/** An http agent's scenario: two turns, the second with a tool call the service reports. */
export function serviceAgentResult(): Result {
  return {
    scenario_id: 'http_booking',
    agent: 'receptionist_http',
    gate: 'blocking',
    tags: [],
    status: 'pass',
    reason: 'all expectations met',
    metadata_only: false,
    metrics: [{ metric: 'state_path', version: '1.0.0', score: null, threshold: null, passed: true, reason: 'offering → booked' }],
    cost: { input_tokens: 0, output_tokens: 0, usd: 0, calls: 0 },
    calls: [
      { role: 'agent', provider: 'service', model: 'receptionist_http', turn: 1, input_tokens: 0, output_tokens: 0, cost_usd: null, latency_ms: 40 },
      { role: 'agent', provider: 'service', model: 'receptionist_http', turn: 2, input_tokens: 0, output_tokens: 0, cost_usd: null, latency_ms: 55 },
    ],
    transcript: {
      ended_by: 'script',
      turns: [
        { role: 'user', content: 'A massage on Saturday?', turn: 1 },
        { role: 'assistant', content: 'We have 10:00.', turn: 1, latency_ms: 40, state: 'offering' },
        { role: 'user', content: 'Book it', turn: 2 },
        { role: 'assistant', content: 'Booked: BK-77', turn: 2, latency_ms: 55, tool_calls: [{ name: 'create_booking', args: { slot: '10:00' } }], state: 'booked' },
      ],
    },
  } as Result;
}

export function sampleReport(results: Result[] = [promptAgentResult(false), serviceAgentResult()]): RunReport {
  return {
    schema_version: 1,
    run_id: 'run-1',
    suite: 'ratiba_booking',
    parley_version: '0.1.0',
    mode: 'replay',
    status: 'pass',
    exit_code: 0,
    strict: false,
    started_at: '2026-11-26T10:00:00.000Z',
    finished_at: '2026-11-26T10:00:01.000Z',
    duration_ms: 1000,
    git_sha: 'abc1234',
    config_fingerprint: null,
    cost_usd: 0.01,
    cost: { input_tokens: 0, output_tokens: 0, usd: 0.01, calls: 3 },
    counts: { pass: results.length, fail: 0, warn: 0, flaky: 0, error: 0, skipped: 0 },
    results,
  } as RunReport;
}
