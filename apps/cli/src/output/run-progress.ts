import type cliProgress from 'cli-progress';
import type { RunEvent, RunListener } from '@parley/core';
import { paint, type Output } from './output.js';
import { fitLine, hangingWrap } from './text-wrap.js';

/**
 * Shows a run as it goes: a progress bar on an interactive terminal, one plain line per finished
 * scenario otherwise (CI logs, pipes). Both go to stderr so stdout keeps only the summary. The bar's
 * library is loaded only for a terminal.
 */
export async function runProgress(output: Output): Promise<{ listener: RunListener; stop(): void }> {
  const progressBars = output.interactive ? (await import('cli-progress')).default : undefined;
  const colors = paint(output.color);
  let bar: cliProgress.SingleBar | undefined;
  let total = 0;
  let done = 0;
  let failed = 0;
  // One column spare: a line that exactly fills the terminal wraps in some of them.
  const width = output.columns - 1;
  const listener = (event: RunEvent): void => {
    switch (event.type) {
      case 'run_started':
        total = event.scenario_ids.length;
        {
          const [first = '', ...rest] = hangingWrap(`parley ${event.suite} · ${event.mode} · ${total} scenario${total === 1 ? '' : 's'} · run ${event.run_id}`, width, '  ');
          output.err(`${[colors.bold('parley') + first.slice('parley'.length), ...rest].join('\n')}\n`);
        }
        if (progressBars) {
          bar = new progressBars.SingleBar(
            {
              format: ' {bar} {value}/{total} scenarios · {failed} failing · {last}',
              hideCursor: true,
              clearOnComplete: true,
              stream: process.stderr,
              noTTYOutput: false,
            },
            progressBars.Presets.shades_classic,
          );
          bar.start(total, 0, { failed: 0, last: '' });
        }
        break;
      case 'scenario_finished': {
        done += 1;
        const { result } = event;
        if (result.status === 'fail' || result.status === 'error') failed += 1;
        if (bar) bar.update(done, { failed, last: result.scenario_id });
        else {
          const counter = `[${done}/${total}] `;
          const id = fitLine(result.scenario_id, width - counter.length - 8);
          output.err(`${counter}${colors.status(result.status, result.status.padEnd(7))} ${id}\n`);
        }
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
