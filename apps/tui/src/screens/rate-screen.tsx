import { useEffect, useState } from 'react';
import { Text } from 'ink';
import { calibrationFolder, loadCalibrationFolder, loadCalibrationSet, ratedPerReviewer, startRatingSession } from '@parley/calibration';
import { ConfigError } from '@parley/core';
import { ScreenFrame, useBodyRows } from '../components/screen-frame.js';
import { RateSessionView, type RateSessionSource } from '../rate/rate-session-view.js';
import { wrapText } from '../rate/wrap-text.js';
import { useTerminalSize } from '../terminal-size.js';
import { parleyOf, useServices } from '../tui-context.js';

type Loaded = { source: RateSessionSource } | { problem: string };

/**
 * `parley tui rate`: the reviewer's session over `human_labelled.yaml` (docs/tui.md, "Rate"). Reads the set
 * and its rubric once; every rating is then written through the calibration writer as it is given.
 */
export function RateScreen() {
  const services = useServices();
  const [loaded] = useState((): Loaded => {
    const reviewer = services.reviewer ?? services.env.PARLEY_REVIEWER;
    if (!reviewer) return { problem: `Who is rating? Start the session with \`${parleyOf(services)} tui rate --reviewer NAME\`.` };
    const folder = calibrationFolder(services.calibrationDir, services.cwd);
    try {
      const { set, rubric } = loadCalibrationFolder(folder);
      const atStart = ratedPerReviewer(set);
      // The set file as it is now (other reviewers save into it meanwhile); while it cannot be read
      // (someone is editing it by hand) the last counts read stay.
      let last = atStart;
      const readReviewers = () => {
        try {
          last = ratedPerReviewer(loadCalibrationSet(folder.setFile));
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
        }
        return last;
      };
      return { source: { session: startRatingSession(set, reviewer), setFile: folder.setFile, rubric, readReviewers } };
    } catch (error) {
      if (error instanceof ConfigError) return { problem: error.message };
      throw error;
    }
  });
  if ('problem' in loaded) return <UnreadableSet problem={loaded.problem} />;
  return <RateSessionView source={loaded.source} />;
}

/** Why the set cannot be rated (file:line:column first), wrapped, as many lines as fit. */
function UnreadableSet({ problem }: { problem: string }) {
  const services = useServices();
  const bodyRows = useBodyRows();
  const { columns } = useTerminalSize();
  // An unreadable set is a configuration error, as in `parley calibrate`: exit 2 on leaving.
  useEffect(() => services.setExitCode(2), [services]);
  const wrapped = problem.split('\n').flatMap((line) => wrapText(line, columns - 2, 2));
  const room = Math.max(1, bodyRows - 1);
  const lines = wrapped.length <= room ? wrapped : [...wrapped.slice(0, room - 1), `… ${wrapped.length - room + 1} more lines (parley calibrate shows them all)`];
  return (
    <ScreenFrame title="Rate" keys={[]}>
      <Text>The calibration set cannot be rated:</Text>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </ScreenFrame>
  );
}
