import { Box, Text } from 'ink';
import type { RatingProgress, SkippedItem } from '@parley/calibration';

/** When nothing is left to rate in this session: what was done, and what was skipped and why. */
export function DoneView({ reviewer, progress, skipped, savedNow, rows, parley = 'parley' }: { reviewer: string; progress: RatingProgress; skipped: readonly SkippedItem[]; savedNow: number; rows: number; parley?: string }) {
  // Besides the list: summary, saved line, blank, list heading, blank, hint, and the message row
  // under this view; one more for `… and N more` when the list is cut.
  const room = Math.max(0, rows - 7);
  const listed = skipped.length <= room ? skipped : skipped.slice(0, Math.max(0, room - 1));
  if (progress.total === 0) {
    // A new set: "rated all 0 items" would read as work finished.
    return (
      <Box flexDirection="column">
        <Text bold>The calibration set has no items yet: nothing to rate.</Text>
        <Text> </Text>
        <Text>Add conversations with `{parley} calibrate import FILE` (or `c` on a scenario in triage), then rate them here.</Text>
      </Box>
    );
  }
  return (
    <Box flexDirection="column">
      <Text bold>
        {progress.toDo === 0
          ? `All done: ${reviewer} has rated all ${progress.total} items.`
          : `Nothing left to rate in this session: ${progress.done} of ${progress.total} rated.`}
      </Text>
      <Text>{`${savedNow} rated in this session; each rating is already saved.`}</Text>
      {skipped.length > 0 ? (
        <>
          <Text> </Text>
          <Text>{`Skipped in this session (${skipped.length}); they come back in the next session:`}</Text>
          {listed.map((entry) => (
            <Text key={entry.id} wrap="truncate">
              {`  ${entry.id}${entry.reason ? ` — ${entry.reason}` : ''}`}
            </Text>
          ))}
          {skipped.length > listed.length ? <Text dimColor>{`  … and ${skipped.length - listed.length} more`}</Text> : null}
        </>
      ) : null}
      <Text> </Text>
      <Text dimColor>u takes back your last rating; l lists the items to revise one; q quits.</Text>
    </Box>
  );
}
