import type { ToolCall, Transcript, TranscriptTurn } from '@parley/core';
import { composeRules } from './floor-rules.js';
import { compileRules, FAIL_CLOSED, redactionPieces, redactText, type CompiledRule } from './redact-text.js';
import { namesByCues } from './name-cues.js';
import { NAME_PLACEHOLDER } from './person-names.js';
import type { NameCuesRule, RedactionRule } from './redaction-rule.js';
import type { Piece } from './text-pieces.js';
import { DEFAULT_NAME_FIELDS, fieldMatcher, namesInFields, type FieldMatcher } from './structured-fields.js';
import { hashToolArguments } from './tool-arguments.js';

/** Texts remembered per redactor: a run redacts each message for its event and again for the report. */
const MEMO_SIZE = 32_768;

/**
 * Redactors with added names remembered per family (a redactor and every one derived from it by
 * `withNames`). A run's event log scopes one per conversation as it learns its names, and the
 * report's copy of the finished transcript learns the same names again: it then gets that same
 * redactor, whose memo already holds the conversation's texts, instead of redoing each one.
 */
const FAMILY_SIZE = 64;

/** Texts remembered per derived redactor: one conversation's, so the family stays small however long a process runs. */
const DERIVED_MEMO_SIZE = 4_096;

/** What a value of a vertical's masked field (`redaction.extras.<vertical>.fields`) becomes. */
export const MASKED_FIELD_PLACEHOLDER = '<redacted>';

export interface RedactorOptions {
  /** The rules in order; the floor (composeRules()) when left out. */
  rules?: readonly RedactionRule[];
  /** Names to mask as `<name>` (the identities file, names found in structured fields). */
  names?: Iterable<string>;
  /** Structured fields that hold a person's name (default {@link DEFAULT_NAME_FIELDS}). */
  nameFields?: readonly string[];
  /** Structured fields whose whole value is masked (a restricted vertical's extras `fields`). */
  maskedFields?: readonly string[];
  /**
   * Tool arguments become their sha256 (the floor, default). `false` walks them like any other
   * value instead: for the run's own store, which keeps arguments for triage but never a secret.
   */
  hashToolArguments?: boolean;
}

/**
 * The one redactor (docs/privacy.md, "Where the redactor applies"): every path that writes
 * conversation content outside the run (event logs, reports, exported recordings, calibration
 * imports, promoted scenarios) passes it through one of these methods. Every method returns a new
 * value, is idempotent (redacting a redacted value changes nothing) and never throws.
 */
export interface Redactor {
  readonly rules: readonly RedactionRule[];
  /**
   * Free text: a message, a reason, an error. A name the text introduces (`nginguThandiwe`, `my
   * name is Grace`) is masked wherever else it appears in the text too.
   */
  text(text: string): string;
  /**
   * How {@link text} redacts `text`, as pieces: each fixed piece holds what it stands for and the
   * rule that fixed it. Joined, they are `text(text)`. For measuring the redactor.
   */
  explain(text: string): readonly Piece[];
  /**
   * Any JSON-like value: strings are redacted as text, values of name fields become `<name>`,
   * values of masked fields `<redacted>`, and the arguments of anything shaped like a tool call
   * (`{name, args}`, `{name, arguments}`, an Anthropic `tool_use` block's `input`) their sha256.
   */
  value(value: unknown): unknown;
  /** {@link value} for a record (metric details, a log record). */
  record(record: Record<string, unknown>): Record<string, unknown>;
  /** A tool call with its arguments replaced by their sha256; its name stays. */
  toolCall(call: ToolCall): ToolCall;
  /** One message: content redacted (a tool result's JSON structurally), tool arguments hashed. */
  turn(turn: TranscriptTurn): TranscriptTurn;
  /**
   * A whole conversation. Names found in its structured fields (a `customer_name` in a tool call,
   * a tool result), and names a message introduces (`jina langu ni Amina`), are masked in every
   * message, also where a user types them freely.
   */
  transcript(transcript: Transcript): Transcript;
  /**
   * Names held by name fields anywhere in a value, and names its texts introduce (`my name is
   * Grace`), as {@link transcript} learns them.
   */
  namesIn(value: unknown): string[];
  /** The same redactor that also masks these names. */
  withNames(names: Iterable<string>): Redactor;
  /**
   * The redactor {@link transcript} masks a conversation with: this one plus the names the
   * conversation reveals. For texts about the conversation (a judge's reason quotes its names).
   */
  forTranscript(transcript: Transcript): Redactor;
}

/**
 * Builds a redactor. Pattern rules are compiled here, so a bad pattern fails at configuration
 * time (suite patterns are validated with their file location by @parley/config before this).
 *
 * @example
 * const redactor = createRedactor({ names: ['Grace Achieng'] });
 * redactor.text('Grace, your number 0712 345 432 is saved') === '<name>, your number 07** *** 432 is saved'
 */
export function createRedactor(options: RedactorOptions = {}): Redactor {
  const rules = options.rules ?? composeRules();
  const nameFields = options.nameFields ?? DEFAULT_NAME_FIELDS;
  const isNameField = fieldMatcher(nameFields);
  const isMaskedField = fieldMatcher(options.maskedFields ?? []);
  const names = [...(options.names ?? [])];
  return buildRedactor({
    rules,
    names,
    nameFields,
    maskedFields: options.maskedFields ?? [],
    isNameField,
    isMaskedField,
    hashArguments: options.hashToolArguments ?? true,
    family: new Map(),
    memoSize: MEMO_SIZE,
  });
}

interface RedactorState {
  rules: readonly RedactionRule[];
  names: string[];
  nameFields: readonly string[];
  maskedFields: readonly string[];
  isNameField: FieldMatcher;
  isMaskedField: FieldMatcher;
  hashArguments: boolean;
  /** The family's redactors by their names (see {@link FAMILY_SIZE}); every redactor is a pure function of its state, so one per names list serves all. */
  family: Map<string, Redactor>;
  memoSize: number;
}

function buildRedactor(state: RedactorState): Redactor {
  const compiled: CompiledRule[] = compileRules(state.rules, state.names);
  const cues = state.rules.find((rule): rule is NameCuesRule => rule.kind === 'name_cues');
  /** Names the text introduces itself, which are then masked wherever they appear in it. */
  const introducedNames = (input: string): string[] => {
    if (!cues) return [];
    const found = namesByCues(input, cues);
    return found.length === 0 ? found : found.filter((name) => !state.names.includes(name));
  };
  const rulesFor = (input: string): readonly CompiledRule[] => {
    const introduced = introducedNames(input);
    return introduced.length === 0 ? compiled : compileRules(state.rules, [...state.names, ...introduced]);
  };
  // The same text is redacted several times per run (an event, the finished result, the report):
  // a bounded memo of recent texts saves that work. Redaction is a pure function of the text here.
  const memo = new Map<string, string>();
  const text = (input: string): string => {
    const known = memo.get(input);
    if (known !== undefined) return known;
    const redacted = redactText(input, rulesFor(input));
    if (memo.size >= state.memoSize) memo.clear();
    memo.set(input, redacted);
    return redacted;
  };

  const explain = (input: string): readonly Piece[] => redactionPieces(input, rulesFor(input));

  const value = (input: unknown): unknown => {
    try {
      return redactValue(input, undefined, 0);
    } catch {
      return FAIL_CLOSED;
    }
  };

  function redactValue(node: unknown, parentKey: string | undefined, depth: number): unknown {
    if (typeof node === 'string') return text(node);
    if (node === null || typeof node !== 'object') return node;
    if (depth > 64) return FAIL_CLOSED;
    if (Array.isArray(node)) return node.map((item) => redactValue(item, parentKey, depth + 1));
    const record = node as Record<string, unknown>;
    const argumentsKey = state.hashArguments ? toolArgumentsKey(record) : undefined;
    const result: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(record)) {
      if (key === argumentsKey) result[key] = hashToolArguments(child);
      else if (argumentsKey !== undefined && key === 'name' && typeof child === 'string') result[key] = child; // a tool's name
      else if (state.isMaskedField(key, parentKey) && child !== null && child !== undefined) result[key] = MASKED_FIELD_PLACEHOLDER;
      else if (state.isNameField(key, parentKey) && typeof child === 'string' && child.trim() !== '') result[key] = NAME_PLACEHOLDER;
      else result[key] = redactValue(child, key, depth + 1);
    }
    return result;
  }

  const record = (input: Record<string, unknown>): Record<string, unknown> => {
    const redacted = value(input);
    return redacted !== null && typeof redacted === 'object' && !Array.isArray(redacted)
      ? (redacted as Record<string, unknown>)
      : { redacted: FAIL_CLOSED };
  };

  const toolCall = (call: ToolCall): ToolCall => ({
    ...(call.id !== undefined ? { id: call.id } : {}),
    name: call.name,
    args: state.hashArguments ? hashToolArguments(call.args) : record(call.args),
  });

  const turn = (input: TranscriptTurn): TranscriptTurn => {
    try {
      const { tool_calls: toolCalls, state: agentState, ...rest } = input;
      return {
        ...rest,
        content: input.role === 'tool' ? redactToolResult(input.content) : text(input.content),
        ...(toolCalls !== undefined ? { tool_calls: toolCalls.map(toolCall) } : {}),
        ...(agentState !== undefined ? { state: text(agentState) } : {}),
      };
    } catch {
      return { role: input.role, turn: input.turn, content: FAIL_CLOSED };
    }
  };

  /** A tool result is usually JSON: redacted structurally so its name fields are recognised. */
  function redactToolResult(content: string): string {
    const parsed = parseJson(content);
    return parsed === undefined ? text(content) : JSON.stringify(value(parsed));
  }

  const namesIn = (input: unknown): string[] => {
    if (state.nameFields.length === 0 && !cues) return []; // e.g. the store's secrets-only redactor: nothing to look for
    try {
      const value = typeof input === 'string' ? (parseJson(input) ?? input) : input;
      // A plain text (most messages) has no fields: only the names it introduces.
      if (typeof value === 'string') return introducedNames(value);
      return [...namesInFields(value, state.isNameField), ...stringsIn(value).flatMap(introducedNames)];
    } catch {
      return [];
    }
  };

  const withNames = (more: Iterable<string>): Redactor => {
    const added: string[] = [];
    for (const name of more) if (!state.names.includes(name) && !added.includes(name)) added.push(name);
    if (added.length === 0) return redactor;
    const names = [...state.names, ...added];
    const key = names.join('\u0000');
    const known = state.family.get(key);
    if (known !== undefined) {
      // Most recently used last, so the oldest is the one dropped when the family is full.
      state.family.delete(key);
      state.family.set(key, known);
      return known;
    }
    const derived = buildRedactor({ ...state, names, memoSize: DERIVED_MEMO_SIZE });
    if (state.family.size >= FAMILY_SIZE) state.family.delete(state.family.keys().next().value as string);
    state.family.set(key, derived);
    return derived;
  };

  const forTranscript = (input: Transcript): Redactor =>
    withNames(input.turns.flatMap((message) => [...(message.tool_calls ?? []).flatMap((call) => namesIn(call.args)), ...namesIn(message.content)]));

  const transcript = (input: Transcript): Transcript => {
    try {
      const scoped = forTranscript(input);
      return { ...input, turns: input.turns.map((message) => scoped.turn(message)) };
    } catch {
      return { ended_by: input.ended_by, turns: [] };
    }
  };

  const redactor: Redactor = { rules: state.rules, text, explain, value, record, toolCall, turn, transcript, namesIn, withNames, forTranscript };
  return redactor;
}

/** The key holding a tool call's arguments in a record shaped like one, if it is. */
function toolArgumentsKey(record: Record<string, unknown>): string | undefined {
  if (typeof record['name'] !== 'string') return undefined;
  if (isArgumentsValue(record['args'])) return 'args';
  if (isArgumentsValue(record['arguments'])) return 'arguments';
  if (record['type'] === 'tool_use' && record['input'] !== undefined) return 'input';
  return undefined;
}

function isArgumentsValue(value: unknown): boolean {
  return (value !== null && typeof value === 'object' && !Array.isArray(value)) || typeof value === 'string';
}

/** Every string in a JSON-like value (bounded depth, as the other walks). */
function stringsIn(value: unknown): string[] {
  const strings: string[] = [];
  const visit = (node: unknown, depth: number): void => {
    if (typeof node === 'string') strings.push(node);
    else if (node !== null && typeof node === 'object' && depth <= 64) for (const child of Object.values(node)) visit(child, depth + 1);
  };
  visit(value, 0);
  return strings;
}

function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}
