import { describe, expect, it } from 'vitest';
import type { NormalisedRequest } from './normalise-request.js';
import { ScriptedResponder, type Outcome } from './scripted-responder.js';

const request: NormalisedRequest = {
  api: 'anthropic',
  model: 'claude-opus-4-7',
  system: '',
  messages: [{ role: 'user', content: 'Habari', toolCalls: [], toolNames: [] }],
  headers: {},
};

/** What a sequence of identical requests gets, in a compact form. */
function answers(responder: ScriptedResponder, count: number): string[] {
  return Array.from({ length: count }, () => summarise(responder.choose(request)));
}

function summarise(outcome: Outcome): string {
  if (outcome.kind === 'reply') return `${String(outcome.rule)}:${String(outcome.reply.content)}`;
  if (outcome.kind === 'fault') return `${String(outcome.rule)}:${outcome.fault.kind}`;
  return 'unmatched';
}

describe('ScriptedResponder', () => {
  it('answers with replies in order and repeats the last', () => {
    const responder = new ScriptedResponder({ rules: [{ name: 'seq', replies: [{ content: 'first' }, { content: 'second' }] }] });
    expect(answers(responder, 3)).toEqual(['seq:first', 'seq:second', 'seq:second']);
  });

  it('falls through to later rules once `times` is used up, then to the fallback', () => {
    const responder = new ScriptedResponder({
      rules: [{ reply: { content: 'once' }, times: 1 }, { name: 'twice', reply: { content: 'again' }, times: 2 }],
      fallback: { content: 'sielewi' },
    });
    expect(answers(responder, 4)).toEqual(['0:once', 'twice:again', 'twice:again', 'null:sielewi']);
  });

  it('faults the first fault.times calls, then replies starting at the first reply', () => {
    const responder = new ScriptedResponder({
      rules: [{ name: 'flaky', fault: { kind: 'status', status: 429, times: 2 }, replies: [{ content: 'a' }, { content: 'b' }] }],
    });
    expect(answers(responder, 4)).toEqual(['flaky:status', 'flaky:status', 'flaky:a', 'flaky:b']);
  });

  it('faults every time without fault.times, and counts faults against times', () => {
    const responder = new ScriptedResponder({ rules: [{ fault: { kind: 'hang' }, times: 2 }, { reply: { content: 'ok' } }] });
    expect(answers(responder, 3)).toEqual(['0:hang', '0:hang', '1:ok']);
  });

  it('skips rules whose conditions do not hold and reports no match without a fallback', () => {
    const responder = new ScriptedResponder({ rules: [{ when: { api: 'openai' }, reply: { content: 'openai only' } }] });
    expect(answers(responder, 1)).toEqual(['unmatched']);
  });

  it('restarts counters on reset and on a new script', () => {
    const responder = new ScriptedResponder({ rules: [{ reply: { content: 'once' }, times: 1 }] });
    expect(answers(responder, 2)).toEqual(['0:once', 'unmatched']);
    responder.resetCounters();
    expect(answers(responder, 1)).toEqual(['0:once']);
    responder.replaceScript({ rules: [{ replies: [{ content: 'x' }, { content: 'y' }] }] });
    expect(answers(responder, 2)).toEqual(['0:x', '0:y']);
  });

  it('uses the rule latency, else the default', () => {
    const responder = new ScriptedResponder({
      defaults: { latency_ms: 30 },
      rules: [{ reply: { content: 'slow' }, latency_ms: 100, times: 1 }, { reply: { content: 'default' } }],
    });
    expect([responder.choose(request).latencyMs, responder.choose(request).latencyMs]).toEqual([100, 30]);
  });

  it('lists the exact model names of the script, not regexes', () => {
    const responder = new ScriptedResponder({
      rules: [
        { when: { model: 'gpt-4.1-mini' }, reply: {} },
        { when: { model: '/claude/' }, reply: {} },
        { when: { model: 'gpt-4.1-mini' }, reply: {} },
        { when: { model: 'claude-opus-4-7' }, reply: {} },
      ],
    });
    expect(responder.modelNames()).toEqual(['gpt-4.1-mini', 'claude-opus-4-7']);
  });
});
