import { canonicalJson, terminalSafe, type Transcript, type TranscriptTurn } from '@parley/core';
import { formatScore } from '@parley/gate';
import type { MessageJudgement, MessageMark } from '@parley/reports';
import { wrapText } from '../rate/wrap-text.js';
import type { Theme } from '../theme.js';
import type { Segment, StyledLine } from './styled-lines.js';

/** Lines of a tool's answer shown before the rest is cut: the agent's words matter more. */
const TOOL_RESULT_LINES = 3;
const INDENT = '  ';

/**
 * The chat layout of a stored transcript `width` columns wide: each message under its role and
 * turn, the assistant's tool calls and the tools' answers in place, and under each assistant
 * message every judge's score and reason for it (`judgements` by transcript position).
 */
export function chatLines(transcript: Transcript, judgements: ReadonlyMap<number, readonly MessageJudgement[]>, width: number, theme: Theme): StyledLine[] {
  return chatLayout(transcript, judgements, new Map(), width, theme).lines;
}

/** The chat layout, and where the messages a failure points at start (for `n`/`N`). */
export interface ChatLayout {
  lines: StyledLine[];
  /** Line index of each marked message's header, in transcript order. */
  anchors: number[];
}

/**
 * `chatLines` with the messages behind failing checks and low judge scores marked (`marks` by
 * transcript position, see failureMarks): their header starts with `✗` (a `!` for a low score
 * only) in inverse video, and each reason is listed under the message. Readable without colour.
 */
export function chatLayout(
  transcript: Transcript,
  judgements: ReadonlyMap<number, readonly MessageJudgement[]>,
  marks: ReadonlyMap<number, readonly MessageMark[]>,
  width: number,
  theme: Theme,
): ChatLayout {
  const lines: StyledLine[] = [];
  const anchors: number[] = [];
  const textWidth = Math.max(10, width - INDENT.length);
  const wrapped = (text: string, style: Omit<Segment, 'text'> = {}, indent = INDENT): StyledLine[] =>
    wrapText(text, Math.max(10, width - indent.length)).map((line) => [{ text: indent + line, ...style }]);

  transcript.turns.forEach((turn, index) => {
    if (index > 0) lines.push([]);
    const marked = marks.get(index) ?? [];
    if (marked.length > 0) {
      anchors.push(lines.length);
      const failed = marked.some((mark) => mark.kind === 'failed');
      lines.push([{ text: failed ? '✗' : '!', inverse: true, bold: true, colour: theme.paint(failed ? 'red' : 'yellow') }, { text: ' ' }, ...header(turn, theme)]);
      for (const mark of marked) {
        const text = `${mark.kind === 'failed' ? '✗ failed' : '! low score'} ${mark.metric}: ${mark.what}`;
        lines.push(...wrapped(text, { bold: true, colour: theme.paint(mark.kind === 'failed' ? 'red' : 'yellow') }));
      }
    } else {
      lines.push(header(turn, theme));
    }
    if (turn.role === 'tool') {
      const answer = wrapText(terminalSafe(turn.content.trim()), textWidth);
      lines.push(...answer.slice(0, TOOL_RESULT_LINES).map((line): StyledLine => [{ text: INDENT + line, dim: true }]));
      if (answer.length > TOOL_RESULT_LINES) lines.push([{ text: `${INDENT}… ${answer.length - TOOL_RESULT_LINES} more lines`, dim: true }]);
      return;
    }
    // What an agent wrote is shown with its control characters escaped: it must not drive the terminal.
    if (turn.content.trim() !== '') lines.push(...wrapped(terminalSafe(turn.content.trim())));
    for (const call of turn.tool_calls ?? []) {
      lines.push(...wrapped(`→ ${call.name} ${canonicalJson(call.args)}`, { colour: theme.paint('yellow') }));
    }
    for (const judgement of judgements.get(index) ?? []) lines.push(...judgementLines(judgement, width, theme));
  });
  lines.push([]);
  const ending = transcript.end_explanation ? `ended by ${transcript.ended_by}: ${transcript.end_explanation}` : `ended by ${transcript.ended_by}`;
  lines.push(...wrapped(ending, { dim: true }, ''));
  return { lines, anchors };
}

function header(turn: TranscriptTurn, theme: Theme): StyledLine {
  if (turn.role === 'tool') {
    return [
      { text: `tool ${turn.tool_name ?? ''}`.trimEnd(), bold: true, colour: theme.paint('magenta') },
      { text: turn.tool_mocked ? ' · mocked' : '', dim: true },
    ];
  }
  const notes = [`turn ${turn.turn}`];
  if (turn.simulated) notes.push('simulated');
  if (turn.state) notes.push(`state ${turn.state}`);
  return [
    { text: turn.role, bold: true, colour: theme.paint(turn.role === 'user' ? 'cyan' : 'green') },
    { text: ` · ${notes.join(' · ')}`, dim: true },
  ];
}

/** `  ▸ 95/100 conversation_judge: Checks availability first…`, wrapped under the message. */
function judgementLines(judgement: MessageJudgement, width: number, theme: Theme): StyledLine[] {
  const score = `${formatScore(judgement.score)}/${formatScore(judgement.scale.max)}`;
  const prefix = `${INDENT}▸ `;
  const text = `${score} ${judgement.metric}: ${judgement.reason}`;
  const body = wrapText(text, Math.max(10, width - prefix.length));
  return body.map((line, index): StyledLine => {
    const lead = index === 0 ? prefix : ' '.repeat(prefix.length);
    if (index > 0) return [{ text: lead + line, colour: theme.paint('blue') }];
    return [
      { text: lead, colour: theme.paint('blue') },
      { text: score, bold: true, colour: theme.paint('blue') },
      { text: line.slice(score.length), colour: theme.paint('blue') },
    ];
  });
}
