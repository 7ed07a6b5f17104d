import { spawnSync } from 'node:child_process';
import { render, useApp } from 'ink';
import { App } from './app.js';
import { KeyboardProvider, useKeys } from './components/keyboard.js';
import type { Route } from './routes.js';
import { colourFromEnv, makeTheme, ThemeProvider } from './theme.js';
import { TuiServicesProvider, type TuiServices } from './tui-context.js';

export interface TuiOptions extends Omit<TuiServices, 'openInEditor' | 'setExitCode' | 'exitNow' | 'setFarewell'> {
  start: Route['screen'];
}

/**
 * Opens the TUI on a terminal and resolves with the exit code when the user quits. Needs an
 * interactive terminal: the CLI refuses `parley tui` otherwise.
 */
export async function runTui(options: TuiOptions): Promise<number> {
  let exitCode = 0;
  let farewell: readonly string[] = [];
  // After Ink has left the alternate screen: what stays on the shell's screen.
  const sayFarewell = () => {
    if (farewell.length > 0) process.stdout.write(`${farewell.join('\n')}\n`);
  };
  const services: TuiServices = {
    ...options,
    openInEditor: (file) => openInEditor(file, options.env),
    setExitCode: (code) => {
      exitCode = code;
    },
    setFarewell: (lines) => {
      farewell = lines;
    },
    exitNow: (code) => {
      // Ink first gives the terminal back (raw mode off, cursor shown), then the process ends.
      instance.unmount();
      sayFarewell();
      process.exit(code);
    },
  };
  const theme = makeTheme(colourFromEnv(options.env));
  const start: Route = { screen: options.start } as Route;
  const instance = render(
    <ThemeProvider theme={theme}>
      <TuiServicesProvider services={services}>
        <KeyboardProvider>
          {options.start === 'live' ? null : <CtrlCQuits setExitCode={services.setExitCode} />}
          <App start={start} />
        </KeyboardProvider>
      </TuiServicesProvider>
    </ThemeProvider>,
    {
      // Ctrl-C is a key like the others (CtrlCQuits; the live run stops on it), so it can set the exit code.
      exitOnCtrlC: false,
      patchConsole: false,
      // The screens draw on the terminal's alternate screen, as less and vim do: the shell's own
      // screen and its scrollback are left alone and come back exactly as they were on leaving
      // (quit, Ctrl-C, a crash: Ink leaves the alternate screen whenever it unmounts).
      alternateScreen: true,
      // Ink stops drawing frames when it believes it runs in CI (`CI=true`); the CLI opens the TUI
      // only on an interactive terminal, so a person is there whatever `CI` says.
      interactive: true,
    },
  );
  // An error nothing caught (a failed promise in a key handler, say) first gives the terminal back,
  // then surfaces from here, so its message is printed on the shell's screen and not lost with the
  // alternate one.
  const crash = (error: unknown) => instance.unmount(error instanceof Error ? error : new Error(String(error)));
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  try {
    await instance.waitUntilExit();
  } finally {
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
  }
  sayFarewell();
  return exitCode;
}

/**
 * Ctrl-C quits at once (unsaved scores are dropped, as the keys overlay says) with exit code 130,
 * as an interrupted command does: scripts around `parley tui` can tell it from a normal quit.
 */
function CtrlCQuits({ setExitCode }: { setExitCode: (code: number) => void }) {
  const { exit } = useApp();
  useKeys((input, key) => {
    if (key.ctrl && input === 'c') {
      setExitCode(130);
      exit();
    }
  });
  return null;
}

/**
 * $VISUAL, else $EDITOR, else vi, given the terminal until it exits. The editor runs synchronously
 * on purpose: while it runs, this process must not read stdin, or Ink takes the keys meant for the
 * editor. Raw mode is off meanwhile (the editor sets its own) and back on afterwards.
 */
function openInEditor(file: string, env: NodeJS.ProcessEnv): Promise<void> {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const stdin = process.stdin;
  if (stdin.isTTY) stdin.setRawMode(false);
  try {
    const outcome = spawnSync(`${editor} ${shellQuote(file)}`, { stdio: 'inherit', shell: true, env });
    return outcome.error ? Promise.reject(outcome.error) : Promise.resolve();
  } finally {
    if (stdin.isTTY) stdin.setRawMode(true);
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
