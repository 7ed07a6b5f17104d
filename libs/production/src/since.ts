import { ConfigError } from '@parley/core';

const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/**
 * The start of the `--since` window: a duration back from `now` (`90m`, `24h`, `7d`, `2w`) or a
 * date (`2026-11-01`, or a full ISO timestamp). Anything else is a ConfigError, and so is a date
 * after `now` (a window that starts in the future holds nothing).
 *
 * @example sinceCutoff('7d', new Date('2026-11-30T00:00:00Z')).toISOString() === '2026-11-23T00:00:00.000Z'
 */
export function sinceCutoff(text: string, now: Date): Date {
  const duration = /^(\d+)\s*([mhdw])$/.exec(text.trim());
  if (duration) return new Date(now.getTime() - Number(duration[1]) * UNIT_MS[duration[2]!]!);
  if (/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text.trim())) {
    const date = new Date(text.trim().length === 10 ? `${text.trim()}T00:00:00Z` : text.trim());
    if (!Number.isNaN(date.getTime())) {
      if (date > now) throw new ConfigError(`--since ${text.trim()} is in the future (now is ${now.toISOString()}): give a past date or a duration such as 24h`);
      return date;
    }
  }
  throw new ConfigError(`--since takes a duration such as 7d, 24h, 90m or 2w, or a date such as 2026-11-01; got "${text}"`);
}
