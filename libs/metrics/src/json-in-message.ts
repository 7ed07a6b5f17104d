const FENCED_BLOCK = /```(?:json)?[^\S\n]*\n([\s\S]*?)\n?```/i;

/**
 * The JSON value a message carries: the whole message, or else the first fenced code block
 * (```json … ```), since models often wrap JSON in one.
 *
 * @example parseJsonMessage('Here:\n```json\n{"ok": true}\n```') → { value: { ok: true } }
 */
export function parseJsonMessage(content: string): { value: unknown } | { error: string } {
  const whole = tryParse(content.trim());
  if ('value' in whole) return whole;
  const block = FENCED_BLOCK.exec(content)?.[1];
  if (block === undefined) return whole;
  return tryParse(block.trim());
}

function tryParse(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
