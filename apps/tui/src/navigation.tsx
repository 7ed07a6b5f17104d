import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApp } from 'ink';
import type { Route } from './routes.js';

export interface Navigation {
  readonly route: Route;
  /** How many screens are under this one (0 at the first screen). */
  readonly depth: number;
  push(route: Route): void;
  /** Back to the previous screen; on the first one, asks whether to quit (see `quitAsked`). */
  back(): void;
  quit(): void;
  /**
   * Esc on the first screen asked whether to leave parley tui: the frame shows the question and
   * takes the keys (y quits, n or Esc stays). Esc is pressed to go back often, so it never ends
   * the session without a word (q quits at once).
   */
  readonly quitAsked: boolean;
  cancelQuit(): void;
}

const NavigationContext = createContext<Navigation | undefined>(undefined);

export function NavigationProvider({ start, children }: { start: Route; children: ReactNode }) {
  const { exit } = useApp();
  const [stack, setStack] = useState<Route[]>([start]);
  const [quitAsked, setQuitAsked] = useState(false);
  // Keys are handled one at a time, each after the screen of the one before is drawn: the ref
  // holds the stack that screen was drawn from.
  const depthRef = useRef(0);
  depthRef.current = stack.length - 1;
  const push = useCallback((route: Route) => setStack((current) => [...current, route]), []);
  const quit = useCallback(() => exit(), [exit]);
  const back = useCallback(() => {
    if (depthRef.current === 0) setQuitAsked(true);
    else setStack((current) => (current.length <= 1 ? current : current.slice(0, -1)));
  }, []);
  const cancelQuit = useCallback(() => setQuitAsked(false), []);
  const route = stack[stack.length - 1] ?? start;
  const value = useMemo(
    () => ({ route, depth: stack.length - 1, push, back, quit, quitAsked, cancelQuit }),
    [route, stack.length, push, back, quit, quitAsked, cancelQuit],
  );
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation outside NavigationProvider');
  return navigation;
}
