import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { CaseDetail, CaseSummary, CaseView as View } from '../../src/page-data.js';
import type { ReportAttempt, ReportResult } from '@parley/reports';
import { readChunk } from '../data.js';
import { usd } from '../format.js';
import { go, href } from '../router.js';
import { StatusBadge } from '../status-badge.js';
import { Conversation } from './conversation.js';
import { Expectations } from './expectations.js';
import { HeadRow } from '../table-head.js';

/** A detail chunk's case, loaded when the case opens. */
export function useCaseDetail(summary: CaseSummary | undefined): CaseDetail | undefined {
  const [detail, setDetail] = useState<CaseDetail | undefined>(undefined);
  useEffect(() => {
    setDetail(undefined);
    if (summary === undefined) return;
    let current = true;
    void readChunk(summary.chunk).then((chunk) => {
      if (current) setDetail(chunk[summary.slot]);
    });
    return () => {
      current = false;
    };
  }, [summary?.id]);
  return detail;
}

/**
 * One case: what it is and why it has its status, the expectations, the conversation (never for
 * a metadata_only case: the report withholds it), the error with a replay miss's diff, each
 * attempt of a repeated scenario, and its calls. Esc goes back to the list, [ and ] to the
 * previous and next case of the list, n and N to the next and previous marked message.
 */
export function CaseView({ summary, neighbours }: { summary: CaseSummary | undefined; neighbours: { previous?: string; next?: string } }) {
  const detail = useCaseDetail(summary);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [summary?.id]);
  // A layout effect: the keys work as soon as the case is on screen.
  useLayoutEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.key === 'Escape') go();
      else if (event.key === '[' && neighbours.previous) go('case', neighbours.previous);
      else if (event.key === ']' && neighbours.next) go('case', neighbours.next);
      else if (event.key === 'n' || event.key === 'N') focusMark(event.key === 'n' ? 1 : -1);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', keys);
    return () => document.removeEventListener('keydown', keys);
  }, [neighbours.previous, neighbours.next]);

  if (summary === undefined) {
    return (
      <section>
        <h2>No such case in this report</h2>
        <p>
          <a href={href()}>All cases</a>
        </p>
      </section>
    );
  }
  return (
    <article class="case" aria-labelledby="case-heading">
      <nav class="case-nav" aria-label="Cases">
        <a href={href()}>← All cases</a>
        {neighbours.previous ? <a href={href('case', neighbours.previous)}>[ previous</a> : null}
        {neighbours.next ? <a href={href('case', neighbours.next)}>next ]</a> : null}
      </nav>
      <h2 id="case-heading" tabIndex={-1} ref={heading}>
        <StatusBadge status={summary.status} /> <code>{summary.id}</code>
      </h2>
      {summary.title ? <p class="case-title">{summary.title}</p> : null}
      {summary.vars ? <VariantValues vars={summary.vars} /> : null}
      <p class="case-facts">
        agent <strong>{summary.agent}</strong> · {summary.gate}
        {summary.language ? ` · ${summary.language}` : ''}
        {summary.tags.length > 0 ? ` · tags ${summary.tags.join(', ')}` : ''} · {usd(summary.cost_usd)}
        {detail?.result.file ? (
          <>
            {' '}
            · <code>{detail.result.file}</code>
          </>
        ) : null}
      </p>
      <p class="case-reason">
        <strong>Why: </strong>
        {summary.reason}
      </p>
      {detail === undefined ? <p>Loading the case…</p> : <CaseBody detail={detail} />}
    </article>
  );
}

/** A variant's values, one `name = value` each, in the order of its id (names sorted). */
function VariantValues({ vars }: { vars: Record<string, string> }) {
  const names = Object.keys(vars).sort();
  return (
    <dl class="case-vars" aria-label="Variant">
      {names.map((name) => (
        <div key={name}>
          <dt>
            <code>{name}</code>
          </dt>
          <dd>{vars[name]}</dd>
        </div>
      ))}
    </dl>
  );
}

function CaseBody({ detail }: { detail: CaseDetail }) {
  const { result, view } = detail;
  return (
    <>
      {result.flaky_mark ? (
        <p class="notice">
          Marked flaky in triage on {result.flaky_mark.marked_at.slice(0, 10)} (run {result.flaky_mark.run_id}){result.flaky_mark.note ? `: ${result.flaky_mark.note}` : ''}
        </p>
      ) : null}
      {result.error ? <ErrorBlock error={result.error} /> : null}
      <Expectations view={view} metrics={result.metrics} caption="Expectations" />
      {view.unlocated.length > 0 ? (
        <p class="unlocated">
          <span aria-hidden="true">✗ </span>Failing without a message to point at: {view.unlocated.join(', ')}
        </p>
      ) : null}
      {result.attempts && result.attempts.length > 0 ? (
        <Attempts attempts={result.attempts} views={detail.attempt_views} metadataOnly={result.metadata_only} />
      ) : (
        <ConversationSection result={result} view={view} idPrefix="" />
      )}
      {result.calls && result.calls.length > 0 ? <Calls calls={result.calls} /> : null}
    </>
  );
}

function ConversationSection({ result, view, idPrefix }: { result: ReportResult | ReportAttempt; view: View; idPrefix: string }) {
  const metadataOnly = 'metadata_only' in result ? result.metadata_only : false;
  return (
    <section class="conversation" aria-label="Conversation">
      <h3>Conversation</h3>
      {metadataOnly || result.transcript === undefined ? (
        <p class="withheld" data-withheld="true">
          {metadataOnly
            ? 'This scenario is metadata_only: its conversation, reasons and details are kept out of every report. Its expectations and scores are above.'
            : 'No conversation was recorded for this case.'}
        </p>
      ) : (
        <Conversation transcript={result.transcript} view={view} idPrefix={idPrefix} />
      )}
    </section>
  );
}

function Attempts({ attempts, views, metadataOnly }: { attempts: ReportAttempt[]; views: View[]; metadataOnly: boolean }) {
  return (
    <section class="attempts" aria-label="Attempts">
      <h3>Attempts</h3>
      {attempts.map((attempt, index) => (
        <details key={attempt.attempt} open={index === 0}>
          <summary>
            attempt {attempt.attempt}: <StatusBadge status={attempt.status} /> · {attempt.reason}
          </summary>
          {attempt.error ? <ErrorBlock error={attempt.error} /> : null}
          <Expectations view={views[index]!} metrics={attempt.metrics} caption={`Expectations of attempt ${attempt.attempt}`} />
          {metadataOnly ? (
            <p class="withheld" data-withheld="true">
              metadata_only: the conversation is kept out of every report.
            </p>
          ) : (
            <ConversationSection result={attempt} view={views[index]!} idPrefix={`a${attempt.attempt}-`} />
          )}
        </details>
      ))}
    </section>
  );
}

function ErrorBlock({ error }: { error: NonNullable<ReportResult['error']> }) {
  const lines = (error.details ?? '').split('\n');
  return (
    <section class="error-block" aria-label="Error">
      <h3>
        <span aria-hidden="true">⚠ </span>
        {error.kind === 'replay_miss' ? 'Replay miss' : `Error: ${error.kind}`}
      </h3>
      <p>{error.message}</p>
      {error.details ? (
        <pre class="diff">
          {lines.map((line, index) => (
            <span key={index} class={line.startsWith('+ ') ? 'diff-add' : line.startsWith('- ') ? 'diff-del' : undefined}>
              {line}
              {'\n'}
            </span>
          ))}
        </pre>
      ) : null}
    </section>
  );
}

function Calls({ calls }: { calls: NonNullable<ReportResult['calls']> }) {
  return (
    <details class="calls">
      <summary>{calls.length} calls: role, model, tokens, cost, latency</summary>
      <table>
        <thead>
          <HeadRow columns={['Turn', 'Role', 'Model', ['In', 'num'], ['Out', 'num'], ['Cost', 'num'], ['Latency', 'num']]} />
        </thead>
        <tbody>
          {calls.map((call, index) => (
            <tr key={index}>
              <td>{call.turn}</td>
              <td>{call.role}</td>
              <td>
                {call.provider}:{call.model}
              </td>
              <td class="num">{call.input_tokens}</td>
              <td class="num">{call.output_tokens}</td>
              <td class="num">{usd(call.cost_usd)}</td>
              <td class="num">{call.latency_ms} ms</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

/** Moves focus to the next (1) or previous (-1) marked message after the focused one. */
function focusMark(direction: 1 | -1): void {
  const marked = [...document.querySelectorAll<HTMLElement>('[data-marked="true"]')];
  if (marked.length === 0) return;
  const current = marked.indexOf(document.activeElement as HTMLElement);
  const next = marked[(current + direction + marked.length) % marked.length] ?? marked[0]!;
  next.focus();
  next.scrollIntoView({ block: 'center' });
}
