import type { CompletionRequest, Provider } from '@parley/core';
import type { RecordingEntry } from '@parley/config';
import { materialKey } from './request-key.js';

/**
 * A recording with every string of its requests and responses passed through `redact` (the
 * suite's secrets redactor: keys, tokens, `sk-…` strings an agent echoed), for the files a run
 * writes: `recordings/` is committed to git and `.parley/rerecordings/` is shared in triage. An
 * entry whose request changed gets the key of its redacted request, which is the request a replay
 * of this recording makes: replayed answers carry the masked text, so the later requests of the
 * conversation do too. Entries without a secret are returned as they are.
 */
export function redactRecordingEntries(entries: readonly RecordingEntry[], redact: (text: string) => string): RecordingEntry[] {
  return entries.map((entry) => {
    const request = redactStrings(entry.request, redact);
    const response = redactStrings(entry.response, redact);
    if (request === entry.request && response === entry.response) return entry;
    return { ...entry, ...(request !== entry.request ? { request, key: materialKey(request) } : {}), response };
  });
}

/** `value` with `redact` applied to every string in it; the same object when nothing changed. */
function redactStrings<Value>(value: Value, redact: (text: string) => string): Value {
  if (typeof value === 'string') {
    const redacted = redact(value);
    return (redacted === value ? value : redacted) as Value;
  }
  // A copy is begun only at the first string that changes: a replay masks every request it makes,
  // and nearly all of them hold no secret.
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      const redacted = redactStrings(item, redact);
      if (items === undefined && redacted !== item) items = value.slice(0, index);
      items?.push(redacted);
    }
    return (items ?? value) as Value;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const names = Object.keys(record);
    let entries: Array<[string, unknown]> | undefined;
    for (let index = 0; index < names.length; index += 1) {
      const name = names[index]!;
      const item = record[name];
      const redacted = redactStrings(item, redact);
      if (entries === undefined && redacted !== item) entries = names.slice(0, index).map((earlier) => [earlier, record[earlier]]);
      entries?.push([name, redacted]);
    }
    return (entries ? Object.fromEntries(entries) : value) as Value;
  }
  return value;
}

/**
 * A provider that passes every request through `redact` (the suite's secrets redactor) before the
 * inner provider sees it. A replay answers from recordings whose requests were masked when they
 * were written (see {@link redactRecordingEntries}), so it must key the masked request too: a
 * secret in a system prompt, a scenario turn, a tool mock or an environment value then replays,
 * and a genuine miss diffs masked against masked text, showing what really changed. Messages are
 * masked once each: later requests of a conversation repeat the earlier message objects.
 */
export function maskedRequests(inner: Provider, redact: (text: string) => string): Provider {
  const known = new WeakMap<object, unknown>();
  let lastSystem: { text: string | undefined; masked: string | undefined } = { text: undefined, masked: undefined };
  const once = <Value extends object>(value: Value): Value => {
    let masked = known.get(value) as Value | undefined;
    if (masked === undefined) {
      masked = redactStrings(value, redact);
      known.set(value, masked);
    }
    return masked;
  };
  return {
    complete(request, context, signal) {
      const { messages, tools, system, ...rest } = request;
      const maskedMessages = messages.map(once);
      const maskedTools = tools === undefined ? undefined : once(tools);
      // The system prompt is the same long text in every call of an agent: masked once.
      if (system !== undefined && system !== lastSystem.text) lastSystem = { text: system, masked: redact(system) };
      const maskedSystem = system === undefined ? undefined : lastSystem.masked;
      const maskedRest = redactStrings(rest, redact);
      const unchanged =
        maskedRest === rest && maskedSystem === system && maskedTools === tools && maskedMessages.every((message, index) => message === messages[index]);
      const masked: CompletionRequest = unchanged
        ? request
        : { ...maskedRest, messages: maskedMessages, ...(maskedSystem !== undefined ? { system: maskedSystem } : {}), ...(maskedTools !== undefined ? { tools: maskedTools } : {}) };
      return inner.complete(masked, context, signal);
    },
  };
}
