import type { ReactNode } from 'react';
import { render } from 'ink-testing-library';

/** What ink-testing-library's render returns (its type is not exported). */
export type Instance = ReturnType<typeof render>;
import { systemClock } from '@parley/core';
import { NavigationProvider } from '../navigation.js';
import type { Route } from '../routes.js';
import { FixedTerminalSize, MIN_SIZE, type TerminalSize } from '../terminal-size.js';
import { makeTheme, ThemeProvider } from '../theme.js';
import { TuiServicesProvider, type TuiServices } from '../tui-context.js';
import { App } from '../app.js';
import { KeyboardProvider } from '../components/keyboard.js';

export interface RenderOptions {
  services?: Partial<TuiServices>;
  size?: TerminalSize;
  colour?: boolean;
}

function testServices(overrides: Partial<TuiServices> = {}): TuiServices {
  return {
    cwd: process.cwd(),
    env: {},
    clock: systemClock,
    suitePath: '.',
    storePath: ':memory:',
    calibrationDir: 'calibration',
    openInEditor: async () => {},
    setExitCode: () => {},
    ...overrides,
  };
}

/** Renders `node` inside the providers every screen needs, at 80×24 unless told otherwise. */
export function renderWithProviders(node: ReactNode, options: RenderOptions = {}): Instance {
  return render(
    <ThemeProvider theme={makeTheme(options.colour ?? false)}>
      <TuiServicesProvider services={testServices(options.services)}>
        <FixedTerminalSize size={options.size ?? MIN_SIZE}>
          <KeyboardProvider>{node}</KeyboardProvider>
        </FixedTerminalSize>
      </TuiServicesProvider>
    </ThemeProvider>,
  );
}

/** Renders the whole app starting at `start`: navigation between screens works as in the terminal. */
export function renderApp(start: Route, options: RenderOptions = {}): Instance {
  return renderWithProviders(<App start={start} />, options);
}

export { NavigationProvider };

interface Rendered {
  lastFrame(): string | undefined;
  stdin: { write(data: string): void };
}

/** Lets React and Ink finish what the last input started (event-loop turns, never a timer). */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * How long a wait keeps trying once its quick turns are used up. Only a failing test waits this
 * long; a passing one returns the moment its condition holds.
 */
const PATIENCE_MS = 20_000;

/**
 * Resolves once `condition` holds. It checks after each of the first `turns` event-loop turns (an
 * in-process render needs a few), then every 10 ms: work outside this thread (real HTTP, SQLite,
 * worker threads, subprocesses) takes time on a busy machine, not turns, so a budget of turns
 * alone ran out while that work was still going. It gives up only after both the turns and
 * PATIENCE_MS, returning false then.
 */
export async function eventually(condition: () => boolean, turns = 200): Promise<boolean> {
  const started = performance.now();
  for (let turn = 0; ; turn += 1) {
    if (condition()) return true;
    if (turn >= turns && performance.now() - started > PATIENCE_MS) return false;
    await new Promise<void>((resolve) => (turn < turns ? setImmediate(resolve) : setTimeout(resolve, 10)));
  }
}

/** Waits until the last frame satisfies `predicate` (see eventually); fails with the last frame. */
export async function waitForFrame(rendered: Rendered, predicate: (frame: string) => boolean, turns = 200): Promise<string> {
  let frame = '';
  const matched = await eventually(() => predicate((frame = rendered.lastFrame() ?? '')), turns);
  if (!matched) throw new Error(`frame never matched; last frame:\n${rendered.lastFrame() ?? ''}`);
  return frame;
}

/** Escape sequences of the keys the screens use, for `stdin.write`. */
export const KEYS = {
  enter: '\r',
  // A lone ESC byte is ambiguous (it starts every escape sequence), so Ink 8 holds it for 20 ms
  // before deciding it was the Esc key. Tests send the kitty keyboard protocol's unambiguous
  // Esc (CSI 27 u), which Ink parses at once; the tmux end-to-end tests press the real key.
  escape: '\u001B[27u',
  tab: '\t',
  shiftTab: '\u001B[Z',
  left: '\u001B[D',
  right: '\u001B[C',
  up: '\u001B[A',
  down: '\u001B[B',
  backspace: '\u007F',
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  ctrlC: '\u0003',
} as const;

/** Types keys one at a time, letting each one render before the next (as a person would). */
export async function press(rendered: Rendered, ...keys: string[]): Promise<void> {
  for (const key of keys) {
    rendered.stdin.write(key);
    await settle();
  }
}
