import { spawn } from 'node:child_process';
import { render } from 'ink';
import { App } from './app.js';
import type { Route } from './routes.js';
import { colourFromEnv, makeTheme, ThemeProvider } from './theme.js';
import { TuiServicesProvider, type TuiServices } from './tui-context.js';

export interface TuiOptions extends Omit<TuiServices, 'openInEditor' | 'setExitCode'> {
  start: Route['screen'];
  /** Aborted on Ctrl-C in the live run view (the run then stops as the headless runner does). */
  signal?: AbortSignal;
}

/**
 * Opens the TUI on a terminal and resolves with the exit code when the user quits. Needs an
 * interactive terminal: the CLI refuses `parley tui` otherwise.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  let exitCode = 0;
  const services: TuiServices = {
    ...options,
    openInEditor: (file) => openInEditor(file, options.env),
    setExitCode: (code) => {
      exitCode = code;
    },
  };
  const theme = makeTheme(colourFromEnv(options.env));
  const start: Route = { screen: options.start } as Route;
  const instance = render(
    <ThemeProvider theme={theme}>
      <TuiServicesProvider services={services}>
        <App start={start} />
      </TuiServicesProvider>
    </ThemeProvider>,
    { exitOnCtrlC: options.start !== 'live', patchConsole: false },
  );
  await instance.waitUntilExit();
  return exitCode;
}

/** $VISUAL, else $EDITOR, else vi; the editor gets the terminal until it exits. */
function openInEditor(file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  return new Promise((resolve, reject) => {
    const child = spawn(editor, [file], { stdio: 'inherit', shell: true, env });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}
