import type { ToolCall } from '@parley/core';
import { describeArgumentDifferences } from './argument-similarity.js';
import type { AlignmentMode, CallPairing, ExpectedCall } from './tool-call-alignment.js';

const DIFFERENCES_SHOWN = 2;

/**
 * What a person needs to hear about the tool calls, most telling first: a call that never
 * happened, arguments that differ (with the first differing keys), a call out of order, or for
 * `exact` the first position that differs.
 */
export function describeToolCallProblems(
  expected: ExpectedCall[],
  actual: ToolCall[],
  pairings: CallPairing[],
  mode: AlignmentMode,
): string[] {
  if (expected.length === 0) {
    return actual.length === 0 ? [] : [`no tool call expected, got ${actual.map((call) => call.name).join(', ')}`];
  }
  const problems: string[] = [];
  if (mode === 'exact' && expected.length !== actual.length) {
    problems.push(`expected ${expected.length} call${expected.length === 1 ? '' : 's'}, got ${actual.length}`);
  }
  for (const pairing of pairings) {
    const call = expected[pairing.expected_index];
    if (call === undefined) continue;
    const partner = pairing.actual_index === null ? undefined : actual[pairing.actual_index];
    if (partner === undefined) problems.push(missingCallProblem(call, pairing.expected_index, actual, mode));
    else if (pairing.similarity < 1 && call.args !== undefined) problems.push(argumentsProblem(call, partner));
  }
  return problems;
}

function missingCallProblem(call: ExpectedCall, position: number, actual: ToolCall[], mode: AlignmentMode): string {
  if (mode === 'exact') {
    const atPosition = actual[position];
    return atPosition === undefined
      ? `call ${position + 1}: expected ${call.name}, got none`
      : `call ${position + 1}: expected ${call.name}, got ${atPosition.name}`;
  }
  const calledSomewhere = actual.some((candidate) => candidate.name === call.name);
  if (mode === 'ordered' && calledSomewhere) return `${call.name} called out of order`;
  return calledSomewhere ? `${call.name} called fewer times than expected` : `${call.name} not called`;
}

function argumentsProblem(call: ExpectedCall, partner: ToolCall): string {
  const differences = describeArgumentDifferences(call.args ?? {}, partner.args ?? {});
  const shown = differences.slice(0, DIFFERENCES_SHOWN).join(', ');
  const more = differences.length > DIFFERENCES_SHOWN ? `, and ${differences.length - DIFFERENCES_SHOWN} more` : '';
  return `${call.name} args differ (${shown}${more})`;
}
