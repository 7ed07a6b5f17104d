import cliProgress from 'cli-progress';
import type { RunEvent, RunListener } from '@parley/core';
import { paint, type Output } from './output.js';

/**
 * Shows a run as it goes: a progress bar on an interactive terminal, one plain line per finished
 * scenario otherwise (CI logs, pipes). Both go to stderr so stdout keeps only the summary.
 */
export function runProgress(output: Output): { listener: RunListener; stop(): void } {
  const colors = paint(output.color);
  let bar: cliProgress.SingleBar | undefined;
  let total = 0;
  let done = 0;
  let failed = 0;
  const listener = (event: RunEvent): void => {
    switch (event.type) {
      case 'run_started':
        total = event.scenario_ids.length;
        output.err(`${colors.bold('parley')} ${event.suite} · ${event.mode} · ${total} scenario${total === 1 ? '' : 's'} · run ${event.run_id}\n`);
        if (output.interactive) {
          bar = new cliProgress.SingleBar(
            {
              format: ' {bar} {value}/{total} scenarios · {failed} failing · {last}',
              hideCursor: true,
              clearOnComplete: true,
              stream: process.stderr,
              noTTYOutput: false,
            },
            cliProgress.Presets.shades_classic,
          );
          bar.start(total, 0, { failed: 0, last: '' });
        }
        break;
      case 'scenario_finished': {
        done += 1;
        const { result } = event;
        if (result.status === 'fail' || result.status === 'error') failed += 1;
        if (bar) bar.update(done, { failed, last: result.scenario_id });
        else output.err(`[${done}/${total}] ${colors.status(result.status, result.status.padEnd(7))} ${result.scenario_id}\n`);
        break;
      }
      case 'run_finished':
        bar?.stop();
        bar = undefined;
        break;
      default:
        break;
    }
  };
  return {
    listener,
    stop() {
      bar?.stop();
      bar = undefined;
    },
  };
}
