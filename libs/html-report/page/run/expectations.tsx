import type { MetricResult } from '@parley/core';
import type { CaseView } from '../../src/page-data.js';
import { score, signed } from '../format.js';
import { StatusBadge } from '../status-badge.js';
import { HeadRow } from '../table-head.js';

/**
 * The expectations against the baseline, failures first (as the TUI's metric table): verdict,
 * score, threshold, baseline and the change from it, and the reason. `metrics` gives each row's
 * details (by its position among the expectations).
 */
export function Expectations({ view, metrics, caption }: { view: CaseView; metrics: readonly MetricResult[]; caption: string }) {
  if (view.rows.length === 0) return <p>No expectations.</p>;
  return (
    <table class="expectations">
      <caption>{caption}</caption>
      <thead>
        <HeadRow columns={['Verdict', 'Metric', ['Score', 'num'], ['Threshold', 'num'], ['Baseline', 'num'], ['Δ', 'num'], 'Reason']} />
      </thead>
      <tbody>
        {view.rows.map((row) => {
          const details = metrics[row.position - 1]?.details;
          const gate = [row.regression ? 'regression' : '', row.below_floor ? 'below floor' : '', row.baseline_missing ? 'no baseline entry' : ''].filter(Boolean).join(', ');
          return (
            <tr key={row.position} class={`verdict-${row.verdict}`}>
              <td>
                <StatusBadge status={row.verdict} />
              </td>
              <td>
                <code>{row.metric}</code>
                <span class="muted"> #{row.position}</span>
              </td>
              <td class="num">{score(row.score)}</td>
              <td class="num">{score(row.threshold)}</td>
              <td class="num">{score(row.baseline)}</td>
              <td class="num">
                {signed(row.delta)}
                {row.max_drop !== null ? <span class="muted"> (max drop {score(row.max_drop)})</span> : null}
              </td>
              <td>
                {row.reason}
                {gate !== '' ? <strong> · {gate}</strong> : null}
                {details !== undefined && Object.keys(details).length > 0 ? (
                  <details>
                    <summary>details</summary>
                    <pre>{JSON.stringify(details, null, 2)}</pre>
                  </details>
                ) : null}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
