const ROLES = new Set(['user', 'assistant', 'tool']);

/**
 * Why a transcript cannot be evaluated, or null when its shape is sound. Transcripts come from
 * agents, recordings and stored reports, so metrics check the shape once here instead of
 * trusting the type and throwing halfway through.
 */
export function transcriptProblem(transcript: unknown): string | null {
  if (!isRecord(transcript)) return 'the transcript is not an object';
  const turns = transcript['turns'];
  if (!Array.isArray(turns)) return 'the transcript has no list of turns';
  for (const [index, turn] of turns.entries()) {
    const problem = messageProblem(turn);
    if (problem !== null) return `transcript message ${index + 1} ${problem}`;
  }
  return null;
}

function messageProblem(message: unknown): string | null {
  if (!isRecord(message)) return 'is not an object';
  const role = message['role'];
  if (typeof role !== 'string' || !ROLES.has(role)) return `has an unknown role ${JSON.stringify(role) ?? 'undefined'}`;
  if (typeof message['content'] !== 'string') return `(${role}) has no text content`;
  const turn = message['turn'];
  if (typeof turn !== 'number' || !Number.isInteger(turn) || turn < 1) return `(${role}) has no user turn number`;
  const latency = message['latency_ms'];
  if (latency !== undefined && (typeof latency !== 'number' || !Number.isFinite(latency) || latency < 0)) {
    return `(${role}) has a latency that is not a non-negative number`;
  }
  if (message['state'] !== undefined && typeof message['state'] !== 'string') return `(${role}) has a state that is not a string`;
  return toolCallsProblem(message['tool_calls'], role);
}

function toolCallsProblem(toolCalls: unknown, role: string): string | null {
  if (toolCalls === undefined) return null;
  if (!Array.isArray(toolCalls)) return `(${role}) has tool_calls that are not a list`;
  for (const [index, call] of toolCalls.entries()) {
    if (!isRecord(call) || typeof call['name'] !== 'string' || call['name'] === '') {
      return `(${role}) has tool call ${index + 1} without a name`;
    }
    if (call['args'] !== undefined && !isPlainObject(call['args'])) {
      return `(${role}) has tool call ${index + 1} (${call['name']}) whose args are not an object`;
    }
  }
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** An object that is a map of keys to values (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
