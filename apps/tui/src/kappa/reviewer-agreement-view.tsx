import { Box, Text } from 'ink';
import { formatBias, type ReviewerAgreement } from '@parley/calibration';
import { wrapText } from '../rate/wrap-text.js';
import { fit, measureCell } from './kappa-cells.js';

const NAME = 14;

/**
 * The selected comparison's agreement with each reviewer on the selected axis: a model against that
 * reviewer, or (human vs human) that reviewer against the others. Computed from the set and the
 * judge session's ratings, not from the report file.
 */
export function ReviewerAgreementView({
  rows,
  problem,
  width,
  maxRows,
  scroll = 0,
}: {
  rows: readonly ReviewerAgreement[];
  problem: string | undefined;
  width: number;
  maxRows: number;
  /** First reviewer shown (PgDn/PgUp on the kappa screen); clamped here. */
  scroll?: number;
}) {
  // Below the header: every reviewer when they fit, else a page of them from `scroll` and a line
  // saying how many are above and below (PgUp/PgDn move the page).
  const room = Math.max(1, maxRows - 1);
  const page = rows.length <= room ? rows.length : Math.max(1, room - 1);
  const start = Math.max(0, Math.min(scroll, rows.length - page));
  const listed = rows.slice(start, start + page);
  const above = start;
  const below = rows.length - start - listed.length;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {`${fit('per reviewer', NAME)}  κ quad  exact   bias    n`}
      </Text>
      {problem !== undefined && rows.length === 0 ? (
        wrapText(problem, width - 1)
          .slice(0, Math.max(1, maxRows - 1))
          .map((line, index) => (
            <Text key={index} dimColor wrap="truncate-end">
              {line}
            </Text>
          ))
      ) : rows.length === 0 ? (
        <Text dimColor>no reviewer in this comparison</Text>
      ) : (
        <>
          {listed.map((row) => (
            <Text key={row.reviewer} wrap="truncate-end">
              {fit(row.reviewer, NAME)} {measureCell(row.kappaQuadratic, 7)} {measureCell(row.exact, 6)}{' '}
              {fit(row.bias === null ? 'undef' : formatBias(row.bias), 6, 'right')} {fit(String(row.n), 4, 'right')}
            </Text>
          ))}
          {rows.length > listed.length ? (
            <Text dimColor wrap="truncate-end">
              {[below > 0 ? `… ${below} more below (PgDn)` : '', above > 0 ? `${above} above (PgUp)` : ''].filter(Boolean).join(' · ')}
            </Text>
          ) : null}
        </>
      )}
    </Box>
  );
}
