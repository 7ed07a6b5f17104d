import type { Transcript, TranscriptTurn } from '@parley/core';
import type { CaseView } from '../../src/page-data.js';
import { trimNumber, usd } from '../format.js';

/** The conversation as a chat: each assistant message with its judges' scores and reasons and its failure marks; tool calls with their arguments and results. */
export function Conversation({ transcript, view, idPrefix }: { transcript: Transcript; view: CaseView; idPrefix: string }) {
  const marks = new Map(view.marks);
  const judgements = new Map(view.judgements);
  return (
    <ol class="chat">
      {transcript.turns.map((turn, index) => (
        <Message key={index} turn={turn} index={index} marks={marks.get(index) ?? []} judgements={judgements.get(index) ?? []} id={`${idPrefix}m-${index}`} />
      ))}
      <li class="chat-end">
        conversation ended by {transcript.ended_by.replace(/_/g, ' ')}
        {transcript.end_explanation ? `: ${transcript.end_explanation}` : ''}
      </li>
    </ol>
  );
}

interface MessageProps {
  turn: TranscriptTurn;
  index: number;
  id: string;
  marks: CaseView['marks'][number][1];
  judgements: CaseView['judgements'][number][1];
}

function Message({ turn, index, id, marks, judgements }: MessageProps) {
  const failed = marks.some((mark) => mark.kind === 'failed');
  const who = turn.role === 'user' ? (turn.simulated ? 'user (simulated)' : 'user') : turn.role === 'tool' ? `tool ${turn.tool_name ?? ''}` : 'assistant';
  return (
    <li class={`msg msg-${turn.role}${marks.length > 0 ? ' marked' : ''}`} id={id} tabIndex={-1} data-marked={marks.length > 0 ? 'true' : undefined}>
      <div class="msg-meta">
        {marks.length > 0 ? (
          <span class={`mark ${failed ? 'mark-failed' : 'mark-low'}`}>
            <span aria-hidden="true">{failed ? '✗' : '!'}</span> {failed ? 'failed here' : 'low score'}
          </span>
        ) : null}{' '}
        <strong>{who}</strong> · message {index + 1} · turn {turn.turn}
        {turn.tool_mocked ? ' · mocked' : ''}
        {turn.latency_ms !== undefined ? ` · ${turn.latency_ms} ms` : ''}
        {turn.cost_usd !== undefined ? ` · ${usd(turn.cost_usd)}` : ''}
        {turn.state ? ` · state ${turn.state}` : ''}
      </div>
      {turn.role === 'tool' ? <pre class="tool-result">{pretty(turn.content)}</pre> : turn.content !== '' ? <p class="msg-text">{turn.content}</p> : null}
      {(turn.tool_calls ?? []).map((call, position) => (
        <div class="tool-call" key={call.id ?? position}>
          <span class="tool-name">
            <span aria-hidden="true">⚙ </span>calls <code>{call.name}</code>
          </span>
          <pre>{JSON.stringify(call.args, null, 2)}</pre>
        </div>
      ))}
      {marks.length > 0 ? (
        <ul class="marks" aria-label="Failure marks">
          {marks.map((mark) => (
            <li key={mark.metric + mark.what} class={mark.kind === 'failed' ? 'mark-failed' : 'mark-low'}>
              <span aria-hidden="true">{mark.kind === 'failed' ? '✗ ' : '! '}</span>
              <code>{mark.metric}</code>: {mark.what}
            </li>
          ))}
        </ul>
      ) : null}
      {judgements.length > 0 ? (
        <ul class="judgements" aria-label="Judge scores">
          {judgements.map((judgement, position) => (
            <li key={position} class="judgement">
              <span class="judge-score">
                <code>{judgement.metric}</code> {trimNumber(judgement.score, 2)}/{trimNumber(judgement.scale.max, 2)}
              </span>{' '}
              <span class="judge-reason">{judgement.reason}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** A tool result as indented JSON when it is JSON, as it is otherwise. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
