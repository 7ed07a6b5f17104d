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
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item: unknown) => {
      const redacted = redactStrings(item, redact);
      if (redacted !== item) changed = true;
      return redacted;
    });
    return (changed ? items : value) as Value;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const entries = Object.entries(value).map(([name, item]) => {
      const redacted = redactStrings(item, redact);
      if (redacted !== item) changed = true;
      return [name, redacted] as const;
    });
    return (changed ? Object.fromEntries(entries) : value) as Value;
  }
  return value;
}
