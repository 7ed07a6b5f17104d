import type { AgentIndexRow } from '@parley/runner';

/** Column widths of the agent table; the trend takes what is left of the terminal's width. */
const AGENT_COLUMNS = { cursor: 2, name: 18, type: 7, kind: 11, scenarios: 4, last: 4, status: 9 } as const;

/** Characters the fixed columns and the single spaces between them take. */
const FIXED_WIDTH =
  AGENT_COLUMNS.cursor + AGENT_COLUMNS.name + AGENT_COLUMNS.type + AGENT_COLUMNS.kind + AGENT_COLUMNS.scenarios + AGENT_COLUMNS.last + AGENT_COLUMNS.status + 6;

export function trendWidth(columns: number): number {
  return Math.max(4, columns - FIXED_WIDTH);
}

/** `text` cut to `width` (with … when cut) and padded to it. */
export function fit(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const cut = text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
  return align === 'left' ? cut.padEnd(width) : cut.padStart(width);
}

export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? '—' : `${Math.round(rate * 100)}%`;
}

/** The text cells of one agent row (the trend is drawn separately, as a sparkline). */
export function agentCells(row: AgentIndexRow): { name: string; type: string; kind: string; scenarios: string; last: string; status: string } {
  return {
    name: fit(row.name, AGENT_COLUMNS.name),
    type: fit(row.family ?? '—', AGENT_COLUMNS.type),
    kind: fit(row.kind ?? '?', AGENT_COLUMNS.kind),
    scenarios: fit(row.scenarios === null ? '—' : String(row.scenarios), AGENT_COLUMNS.scenarios, 'right'),
    // After a partial run: the newest result of each scenario (the selected line says so).
    last: fit(percent(row.latest ? row.latest.passRate : row.lastRun?.passRate), AGENT_COLUMNS.last, 'right'),
    status: fit(row.status, AGENT_COLUMNS.status),
  };
}

export function headerLine(columns: number): string {
  return [
    ' '.repeat(AGENT_COLUMNS.cursor - 1),
    fit('AGENT', AGENT_COLUMNS.name),
    fit('TYPE', AGENT_COLUMNS.type),
    fit('KIND', AGENT_COLUMNS.kind),
    fit('SCN', AGENT_COLUMNS.scenarios, 'right'),
    fit('LAST', AGENT_COLUMNS.last, 'right'),
    fit('STATUS', AGENT_COLUMNS.status),
    fit('RECENT RUNS →', trendWidth(columns)),
  ].join(' ');
}

/** `text` broken into at most `maxLines` lines of `width` (the last one cut with …). */
export function wrapLines(text: string, width: number, maxLines: number): string[] {
  const flat = text.replace(/\s*\n\s*/g, ' · ');
  const lines: string[] = [];
  for (let start = 0; start < flat.length && lines.length < maxLines; start += width) lines.push(flat.slice(start, start + width));
  if (flat.length > width * maxLines) lines[maxLines - 1] = fit(flat.slice(width * (maxLines - 1)), width).trimEnd();
  return lines;
}
