import { useState } from 'preact/hooks';
import type { CalibrationPageData } from '../../src/page-data.js';
import { measure } from '../format.js';
import { StatusBadge } from '../status-badge.js';
import { CellItems, Heatmap } from './heatmap.js';
import { KappaChart, KappaTable } from './kappa-chart.js';
import { TrendChart } from './trend-chart.js';
import { HeadRow } from '../table-head.js';

/**
 * The calibration report's page: the gate, κ with its interval per axis and comparison, a
 * confusion matrix as a heatmap whose cells list the items behind them, the agreement per
 * reviewer, and the trend across sessions.
 */
export function CalibrationApp({ data }: { data: CalibrationPageData }) {
  const { report } = data;
  const axes = [...report.set.axes, 'overall'];
  const [comparisonId, setComparisonId] = useState(report.comparisons[0]?.id ?? 'judge_vs_human');
  const [axis, setAxis] = useState(axes[0]!);
  const [cell, setCell] = useState<{ row: number; column: number } | undefined>(undefined);
  const comparison = report.comparisons.find((entry) => entry.id === comparisonId) ?? report.comparisons[0]!;
  const row = comparison.axes.find((entry) => entry.axis === axis);
  const set = data.cell_sets.find((entry) => entry.comparison === comparison.id && entry.axis === axis);
  const [rowsLabel = 'first', columnsLabel = 'second'] = comparison.label.split(' vs ');
  const judge = report.session.judge ? `${report.session.judge.provider}:${report.session.judge.model}` : 'no judge';
  return (
    <>
      <header class="run-header">
        <h1>
          Judge calibration {data.date} <StatusBadge status={report.gate.passed ? 'pass' : 'fail'} label={report.gate.passed ? 'gate PASS' : 'gate FAIL'} />
        </h1>
        <p class="subtitle">
          set <code>{report.set.path}</code> · {report.set.rated_items} of {report.set.items} items rated by people · rubric {report.set.rubric_version} · session{' '}
          <code>{report.session.id}</code> ({report.session.mode}) · judge {judge}
          {report.session.cross_check ? ` · cross-check ${report.session.cross_check.provider}:${report.session.cross_check.model}` : ''}
        </p>
        {report.warnings.length > 0 ? (
          <section aria-label="Warnings" class="warnings">
            <h2>Warnings</h2>
            <ul>
              {report.warnings.map((warning) => (
                <li key={warning}>
                  <span aria-hidden="true">! </span>
                  {warning}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </header>
      <main>
        <section aria-labelledby="gate-heading">
          <h2 id="gate-heading">The gate</h2>
          <p>
            Every axis's judge-vs-human quadratic κ must reach {report.gate.min_kappa} and its bias stay within ±{report.gate.max_bias} rating points.
          </p>
          <table class="gate-table">
            <thead>
              <HeadRow columns={['Axis', 'Verdict', ['κ quadratic', 'num'], ['Bias', 'num'], 'Problems']} />
            </thead>
            <tbody>
              {report.gate.axes.map((gateAxis) => (
                <tr key={gateAxis.axis}>
                  <th scope="row">{gateAxis.axis}</th>
                  <td>
                    <StatusBadge status={gateAxis.passed ? 'pass' : 'fail'} />
                  </td>
                  <td class="num">{measure(gateAxis.kappa_quadratic)}</td>
                  <td class="num">{gateAxis.bias === null ? 'undefined' : gateAxis.bias.toFixed(2)}</td>
                  <td>{gateAxis.problems.join('; ') || '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="kappa-heading">
          <h2 id="kappa-heading">κ and its 95 % interval</h2>
          <KappaChart report={report} />
          <details>
            <summary>The numbers</summary>
            <KappaTable report={report} />
          </details>
        </section>
        <section aria-labelledby="matrix-heading">
          <h2 id="matrix-heading">Confusion matrix</h2>
          <form class="filters" onSubmit={(event) => event.preventDefault()}>
            <div class="field">
              <label for="filter-comparison">
                Comparison
              </label>
              <select id="filter-comparison"
                value={comparison.id}
                onChange={(event) => {
                  setComparisonId(event.currentTarget.value as typeof comparisonId);
                  setCell(undefined);
                }}
              >
                {report.comparisons.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.label}
                  </option>
                ))}
              </select>
            </div>
            <div class="field">
              <label for="filter-axis">
                Axis
              </label>
              <select id="filter-axis"
                value={axis}
                onChange={(event) => {
                  setAxis(event.currentTarget.value);
                  setCell(undefined);
                }}
              >
                {axes.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          </form>
          {row ? (
            <>
              <p>
                {row.n} pairs from {row.items} items · quadratic κ {measure(row.kappa.quadratic)} ({row.band ?? 'no band'}) · exact agreement {measure(row.exact_agreement)}
              </p>
              <div class="matrix-and-items">
                <Heatmap matrix={row.confusion_matrix} rowsLabel={rowsLabel} columnsLabel={columnsLabel} selected={cell} onSelect={setCell} />
                {cell === undefined ? (
                  <p class="hint">Choose a cell to list the items behind it.</p>
                ) : set ? (
                  <CellItems set={set} itemRatings={data.item_ratings} row={cell.row} column={cell.column} rowsLabel={rowsLabel} columnsLabel={columnsLabel} />
                ) : (
                  <p role="status">The items cannot be listed: {data.problem ?? 'no pairs were kept for this comparison'}.</p>
                )}
              </div>
            </>
          ) : (
            <p>No pairs for {comparison.label} on {axis}.</p>
          )}
        </section>
        <section aria-labelledby="reviewers-heading">
          <h2 id="reviewers-heading">Agreement per reviewer</h2>
          {set && set.reviewers.length > 0 ? (
            <table>
              <caption>
                {comparison.label} on {axis}: {rowsLabel} against each reviewer
              </caption>
              <thead>
                <HeadRow columns={['Reviewer', ['Pairs', 'num'], ['κ quadratic', 'num'], ['Exact agreement', 'num'], ['Bias', 'num']]} />
              </thead>
              <tbody>
                {set.reviewers.map((reviewer) => (
                  <tr key={reviewer.reviewer}>
                    <th scope="row">{reviewer.reviewer}</th>
                    <td class="num">{reviewer.n}</td>
                    <td class="num">{measure(reviewer.kappaQuadratic)}</td>
                    <td class="num">{measure(reviewer.exact)}</td>
                    <td class="num">{reviewer.bias === null ? 'undefined' : reviewer.bias.toFixed(2)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>{data.problem ?? `No reviewer takes part in ${comparison.label}.`}</p>
          )}
          <p>
            Reviewers of the set:{' '}
            {Object.entries(report.set.reviewers)
              .map(([reviewer, count]) => `${reviewer} (${count} items)`)
              .join(', ') || 'none'}
          </p>
        </section>
        <section aria-labelledby="trend-heading">
          <h2 id="trend-heading">Trend across sessions</h2>
          <TrendChart report={report} />
        </section>
      </main>
      <footer class="page-footer">Made by Parley from the calibration report and the set's ratings.</footer>
    </>
  );
}
