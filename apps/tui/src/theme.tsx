import { createContext, useContext, type ReactNode } from 'react';
import type { RunStatus } from '@parley/core';

/** Ink colour names the screens use; `undefined` means the terminal's default colour. */
export type Colour = 'green' | 'red' | 'magenta' | 'yellow' | 'gray' | 'cyan' | 'blue';

export interface Theme {
  /** False under NO_COLOR: every colour below is then undefined and emphasis stays (bold, inverse). */
  readonly colour: boolean;
  paint(colour: Colour): Colour | undefined;
  status(status: RunStatus): Colour | undefined;
  /** Colour of a run's state as `runState` names it (a status, `interrupted`, `unfinished`). */
  runState(state: string): Colour | undefined;
}

const statusColours: Record<RunStatus, Colour> = {
  pass: 'green',
  fail: 'red',
  error: 'magenta',
  warn: 'yellow',
  flaky: 'yellow',
  skipped: 'gray',
  interrupted: 'yellow',
};

export function makeTheme(colour: boolean): Theme {
  return {
    colour,
    paint: (name) => (colour ? name : undefined),
    status: (status) => (colour ? statusColours[status] : undefined),
    runState: (state) => (colour ? statusColours[state as RunStatus] : undefined),
  };
}

/** NO_COLOR set to anything but the empty string turns colour off (https://no-color.org). */
export function colourFromEnv(env: NodeJS.ProcessEnv): boolean {
  return !('NO_COLOR' in env && env.NO_COLOR !== '');
}

const ThemeContext = createContext<Theme>(makeTheme(true));

export function ThemeProvider({ theme, children }: { theme: Theme; children: ReactNode }) {
  return <ThemeContext.Provider value={theme}>{children}</ThemeContext.Provider>;
}

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
