import type { CalibrationReport } from '@parley/calibration';
import { measure } from '../format.js';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 40, right: 16, top: 12, bottom: 34 };
/** Line dashes per axis, so the lines differ without colour. */
const DASHES = ['', '6 3', '2 3', '10 3 2 3', '1 2'];

/** The gate's κ (judge vs human, quadratic) per axis across the report's sessions, oldest first, as lines. */
export function TrendChart({ report }: { report: CalibrationReport }) {
  const sessions = [...report.trend].sort((left, right) => (left.started_at < right.started_at ? -1 : 1));
  const axes = [...report.set.axes, 'overall'];
  if (sessions.length === 0) return <p>No session to draw a trend from.</p>;
  const x = (index: number) => PAD.left + (sessions.length === 1 ? (WIDTH - PAD.left - PAD.right) / 2 : (index / (sessions.length - 1)) * (WIDTH - PAD.left - PAD.right));
  // κ runs from −1 to 1: the axis reaches down to the lowest value drawn (in steps of 0.2), so a
  // negative κ is drawn below the zero line, never at 0.
  const drawn = sessions.flatMap((session) => axes.map((axis) => session.kappa_quadratic[axis] ?? null)).filter((value): value is number => value !== null);
  const low = Math.max(-1, Math.min(0, Math.floor(Math.min(...drawn, report.gate.min_kappa) * 5 - 1e-9) / 5));
  const y = (value: number) => PAD.top + ((1 - value) / (1 - low)) * (HEIGHT - PAD.top - PAD.bottom);
  const ticks = Array.from({ length: Math.round((1 - low) * 5) + 1 }, (_, step) => Math.round((low + step * 0.2) * 10) / 10);
  // The last date ends at the plot's right edge rather than centred on it, where half of it was cut off.
  const dateAnchor = (index: number) => (sessions.length > 1 && index === sessions.length - 1 ? 'end' : 'middle');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby="trend-title" width="100%">
        <title id="trend-title">Judge vs human quadratic kappa per axis over {sessions.length} sessions</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} class={tick === 0 ? 'grid zero-line' : 'grid'} />
            <text x={4} y={y(tick) + 4} class="tick y-tick">
              {tick < 0 ? `\u2212${(-tick).toFixed(1)}` : tick.toFixed(1)}
            </text>
          </g>
        ))}
        <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(report.gate.min_kappa)} y2={y(report.gate.min_kappa)} class="gate-line" />
        {axes.map((axis, index) => {
          const points = sessions.map((session, position) => [position, session.kappa_quadratic[axis] ?? null] as const).filter((point): point is readonly [number, number] => point[1] !== null);
          return (
            <g key={axis} class={`series series-${index % 5}`}>
              <polyline points={points.map(([position, value]) => `${x(position)},${y(value)}`).join(' ')} stroke-dasharray={DASHES[index % DASHES.length]} />
              {points.map(([position, value]) => (
                <circle key={position} cx={x(position)} cy={y(value)} r={3} />
              ))}
            </g>
          );
        })}
        {sessions.map((session, index) => (
          <text key={session.session_id} x={x(index)} y={HEIGHT - 10} class="tick x-tick" text-anchor={dateAnchor(index)}>
            {session.started_at.slice(0, 10)}
          </text>
        ))}
      </svg>
      <figcaption>
        {axes.map((axis, index) => (
          <span key={axis} class={`legend series-${index % 5}`}>
            <svg width="28" height="10" aria-hidden="true">
              <line x1="0" x2="28" y1="5" y2="5" stroke-dasharray={DASHES[index % DASHES.length]} />
            </svg>{' '}
            {axis}{' '}
          </span>
        ))}
        · dashed grey: the gate's minimum κ {report.gate.min_kappa} · solid grey: κ = 0 (below it, less agreement than chance)
      </figcaption>
      <table class="trend-table">
        <caption>Trend across sessions (judge vs human, quadratic κ)</caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Judge</th>
            {axes.map((axis) => (
              <th scope="col" class="num" key={axis}>
                {axis}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.session_id}>
              <th scope="row">
                {session.started_at.slice(0, 10)} <code>{session.session_id}</code>
              </th>
              <td>{session.judge ? `${session.judge.provider}:${session.judge.model}` : '–'}</td>
              {axes.map((axis) => (
                <td class="num" key={axis}>
                  {measure(session.kappa_quadratic[axis] ?? null)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
