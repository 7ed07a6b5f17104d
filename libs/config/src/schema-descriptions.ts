/**
 * The descriptions editors show for each key of a Parley file, read from our own reference,
 * docs/file-formats.md, so the hover text in an editor and the documentation are one text.
 *
 * Paths use `.` between keys, `[]` for a list's entries and `*` for a mapping's own names
 * (`agents.*.model`, `redaction.rules[].name`). The reference writes names as `<kind>` and
 * siblings as `.key` after a full path (`settings.retries.max`, `.base_delay_ms`).
 */
export interface SchemaDescriptions {
  suite: Record<string, string>;
  scenario: Record<string, string>;
  metric: Record<string, string>;
  /** The keys every expectation may carry (`metric`, `threshold`, `gate`, `thresholding`). */
  expectation: Record<string, string>;
  /** `<metric>.<param>` → description of a built-in metric's parameter. */
  metricParams: Record<string, string>;
  /** Baseline and calibration files, described in prose: key name → the sentences naming it. */
  baseline: Record<string, string>;
  calibration: Record<string, string>;
  /** One line per built-in metric (its section heading), for completion and hover of `metric:`. */
  metrics: Record<string, string>;
}

interface Section {
  heading: string;
  lines: string[];
}

export function readSchemaDescriptions(markdown: string): SchemaDescriptions {
  const sections = splitSections(markdown);
  const section = (prefix: string): Section => {
    const found = sections.find((candidate) => candidate.heading.startsWith(prefix));
    if (found === undefined) throw new Error(`docs/file-formats.md has no section "${prefix}"`);
    return found;
  };
  const suite = tableDescriptions(section('## 1. Suite').lines);
  Object.assign(suite, agentDescriptions(section('## 1. Suite').lines), modelRefDescriptions(section('## 1. Suite').lines));
  const scenario = tableDescriptions(section('## 2. Scenario').lines);
  // A rubric's keys from the rubric table; the keys only metrics written in code have from theirs.
  const metric = { ...tableDescriptions(section('### 6.1 Metrics written in code').lines), ...tableDescriptions(section('## 6. Custom rubric metric').lines) };
  const expectationSection = section('## 4. Expectations');
  const expectation = tableDescriptions(expectationSection.lines);
  expectation.metric ??= firstParagraph(expectationSection.lines);

  const metricParams: Record<string, string> = {};
  const metrics: Record<string, string> = {};
  for (const candidate of sections.filter((entry) => entry.heading.startsWith('### `') || entry.heading.startsWith('### 4.1'))) {
    const names = [...candidate.heading.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] as string);
    const kind = /\(([^)]*)\)/.exec(candidate.heading)?.[1];
    if (names.length === 1) {
      const name = names[0] as string;
      metrics[name] = `${name}${kind ? ` (${kind})` : ''}: ${firstParagraph(candidate.lines)}`;
      for (const [param, text] of Object.entries(tableDescriptions(candidate.lines))) metricParams[`${name}.${param}`] = text;
    }
    // Several metrics in one section: one bullet each, `- **\`name\`**: \`param\` (…) …`, or a bullet naming several.
    for (const line of bulletItems(candidate.lines)) {
      const names = [...line.matchAll(/\*\*`([a-z_]+)`\*\*/g)].map((match) => match[1] as string);
      const text = clean(line.replace(/^- (\*\*`[a-z_]+`\*\*:? )?/, ''));
      for (const name of names) metrics[name] ??= `${name}${kind && !candidate.heading.startsWith('### 4.1') ? ` (${kind})` : ''}: ${text}`;
      const first = /^- \*\*`([a-z_]+)`\*\*:? (.*)$/s.exec(line);
      if (first === null) continue;
      const [, name, rest] = first as unknown as [string, string, string];
      for (const param of (rest.split(/\.\s/)[0] ?? '').matchAll(/`([a-z0-9_]+)`/g)) metricParams[`${name}.${param[1]}`] = clean(rest);
    }
  }
  const files = section('## 7. Baseline and calibration files').lines;
  const paragraphOf = (opening: string): string[] => {
    const start = files.findIndex((line) => line.startsWith(opening));
    const end = files.findIndex((line, index) => index > start && line.trim() === '');
    return start < 0 ? [] : files.slice(start, end < 0 ? undefined : end);
  };
  const baseline = proseDescriptions(paragraphOf('**Baseline JSON'));
  const calibration = proseDescriptions(paragraphOf('**Calibration set'));
  return { suite, scenario, metric, expectation, metricParams, metrics, baseline, calibration };
}

/** Each key named in backticks → the sentences that name it. */
function proseDescriptions(lines: readonly string[]): Record<string, string> {
  const descriptions: Record<string, string> = {};
  const sentences = clean(lines.join(' '))
    .replace(/^[^.]*\*\*?[^*]*\*\*\s*/, '')
    .split(/(?<=[.;])\s+(?=[A-Z`(])/);
  for (const sentence of sentences) {
    for (const match of sentence.matchAll(/`([a-z_]+)(?::[^`]*)?`/g)) {
      const key = match[1] as string;
      descriptions[key] = descriptions[key] === undefined ? sentence : `${descriptions[key]} ${sentence}`;
    }
  }
  return descriptions;
}

function splitSections(markdown: string): Section[] {
  const sections: Section[] = [];
  let current: Section = { heading: '', lines: [] };
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && /^#{2,3} /.test(line)) {
      sections.push(current);
      current = { heading: line, lines: [] };
    } else {
      current.lines.push(line);
    }
  }
  sections.push(current);
  return sections;
}

/** Rows of the section's tables whose first cell names keys: `key` | type | default | what it does. */
function tableDescriptions(lines: readonly string[]): Record<string, string> {
  const descriptions: Record<string, string> = {};
  let header: string[] | undefined;
  for (const line of lines) {
    if (!line.startsWith('|')) {
      header = undefined;
      continue;
    }
    const cells = splitRow(line);
    if (header === undefined) {
      header = cells.map((cell) => cell.toLowerCase());
      continue;
    }
    if (cells.every((cell) => /^-+$/.test(cell))) continue;
    const keys = keyPaths(cells[0] ?? '');
    if (keys.length === 0) continue;
    const text = describeRow(header, cells);
    for (const key of keys) descriptions[key] = text;
  }
  return descriptions;
}

function describeRow(header: readonly string[], cells: readonly string[]): string {
  const parts: string[] = [];
  const what = cells.slice(1).filter((_, index) => !['type', 'default', 'param', 'key', 'common key'].includes(header[index + 1] ?? ''));
  const text = clean(what.filter((cell) => cell !== '' && cell !== '—').join('. ')).replace(/^used(: |\. )/, '');
  if (text !== '') parts.push(/[.!?]$/.test(text) ? capitalise(text) : `${capitalise(text)}.`);
  const type = cells[header.indexOf('type')];
  if (type !== undefined && type !== '—' && type !== '') parts.push(`Type: ${clean(type)}.`);
  const fallback = cells[header.indexOf('default')];
  if (fallback !== undefined && fallback !== '—' && fallback !== '' && header.includes('default')) parts.push(`Default: ${clean(fallback)}.`);
  return parts.join(' ').replace(/\.\./g, '.');
}

/** `settings.retries.max`, `.base_delay_ms` → settings.retries.max, settings.retries.base_delay_ms. */
function keyPaths(cell: string): string[] {
  const keys: string[] = [];
  let parent = '';
  for (const match of cell.matchAll(/`([^`]+)`/g)) {
    const raw = (match[1] as string).trim();
    if (!/^\.?[A-Za-z_<][A-Za-z0-9_<>.[\]-]*$/.test(raw)) continue;
    const full = raw.startsWith('.') ? `${parent}${raw}` : raw;
    parent = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : '';
    keys.push(full.replace(/<[^>]+>/g, '*'));
  }
  return keys;
}

/** The agent table: per kind, `key` (what it is) items. */
function agentDescriptions(lines: readonly string[]): Record<string, string> {
  const descriptions: Record<string, string> = {};
  const start = lines.findIndex((line) => line.startsWith('| kind |'));
  if (start < 0) return descriptions;
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [kinds = '', keys = ''] = splitRow(line);
    const kindNames = [...kinds.matchAll(/`([^`]+)`/g)].map((match) => match[1]).join(', ');
    for (const item of splitTopLevel(keys)) {
      const key = /^`([a-z_]+)`/.exec(item)?.[1];
      if (key === undefined) continue;
      const note = clean(item.slice(key.length + 2)).replace(/^\((.*)\)$/s, '$1');
      descriptions[`agents.*.${key}`] = `${capitalise(key.replace(/_/g, ' '))} of a ${kindNames} agent${note ? `: ${note}` : ''}.`;
    }
  }
  descriptions['agents.*.kind'] = 'Which kind of agent: a prompt on a model (openai, openai-responses, anthropic, openai-compatible) or your own service (http, command, module). The kind decides which other keys are allowed.';
  return descriptions;
}

/** The model ref paragraph: `provider`, `model`, `temperature`, … of simulator and judges. */
function modelRefDescriptions(lines: readonly string[]): Record<string, string> {
  const paragraph = lines.find((line) => line.startsWith('A **model ref**'));
  if (paragraph === undefined) return {};
  const text = clean(lines.slice(lines.indexOf(paragraph), lines.indexOf(paragraph) + 3).join(' '));
  const descriptions: Record<string, string> = {};
  for (const prefix of ['simulator', 'judge.primary', 'judge.cross_check', 'judge.votes_on_fail[]']) {
    for (const key of ['provider', 'model', 'temperature', 'seed', 'base_url', 'api_key_env', 'sample']) {
      descriptions[`${prefix}.${key}`] = `${capitalise(key.replace(/_/g, ' '))} of a model ref. ${text}`;
    }
  }
  return descriptions;
}

function splitRow(line: string): string[] {
  return line
    .replace(/\\\|/g, '\u0000')
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.replace(/\u0000/g, '|').trim());
}

/** Splits at commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of text) {
    if (character === '(') depth++;
    if (character === ')') depth--;
    if (character === ',' && depth === 0) {
      items.push(current.trim());
      current = '';
    } else {
      current += character;
    }
  }
  if (current.trim() !== '') items.push(current.trim());
  return items;
}

function bulletItems(lines: readonly string[]): string[] {
  const items: string[] = [];
  for (const line of lines) {
    if (line.startsWith('- ')) items.push(line);
    else if (line.startsWith('  ') && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    else if (line.trim() === '' && items.length > 0) items.push('');
  }
  return items.filter((item) => item !== '');
}

function firstParagraph(lines: readonly string[]): string {
  const paragraph: string[] = [];
  for (const line of lines) {
    if (line.trim() === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    if (/^[|`>#-]/.test(line)) {
      if (paragraph.length > 0) break;
      continue;
    }
    paragraph.push(line.trim());
  }
  return clean(paragraph.join(' '));
}

/** Markdown emphasis and section references removed; code spans kept as plain quotes-free text. */
function clean(text: string): string {
  return text
    .replace(/\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
