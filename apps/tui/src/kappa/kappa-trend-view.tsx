import { Box, Text } from 'ink';
import { formatMeasure, type ReportTrendPoint } from '@parley/calibration';
import { Sparkline } from '../components/sparkline.js';
import type { Theme } from '../theme.js';
import { fit } from './kappa-cells.js';

const AXIS_WIDTH = 24;

/**
 * The gate kappa of each axis over the reports in `reports/`, oldest on the left, with the latest
 * value, and the gate's verdict per report (✓ passed, ✗ failed) in the same columns.
 */
export function KappaTrendView({ trend, axes, width, theme }: { trend: readonly ReportTrendPoint[]; axes: readonly string[]; width: number; theme: Theme }) {
  const first = trend[0];
  const last = trend.at(-1);
  if (first === undefined || last === undefined) return null;
  const sparkWidth = Math.max(3, width - AXIS_WIDTH - 8);
  const dates = trend.length === 1 ? first.date : `${first.date} → ${last.date}`;
  return (
    <Box flexDirection="column">
      <Text bold>{fit(`Trend · ${trend.length} report${trend.length === 1 ? '' : 's'} · ${dates}`, width)}</Text>
      {axes.map((axis) => {
        const values = trend.map((point) => point.kappa[axis] ?? null);
        const latest = last.kappa[axis] ?? null;
        const passed = last.axisPassed[axis] === true;
        return (
          <Text key={axis} wrap="truncate-end">
            {fit(axis, AXIS_WIDTH)} <Sparkline values={values} width={Math.min(sparkWidth, trend.length)} colour={theme.paint('cyan')} />{' '}
            <Text color={theme.status(passed ? 'pass' : 'fail')}>{formatMeasure(latest)}</Text>
          </Text>
        );
      })}
      <Text wrap="truncate-end">
        {fit('gate', AXIS_WIDTH)}{' '}
        {trend
          .slice(-sparkWidth)
          .map((point) => (point.passed ? '✓' : '✗'))
          .join('')}
      </Text>
    </Box>
  );
}
