import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useApp } from 'ink';
import type { Route } from './routes.js';

export interface Navigation {
  readonly route: Route;
  /** How many screens are under this one (0 at the first screen). */
  readonly depth: number;
  push(route: Route): void;
  /** Back to the previous screen; quits from the first one. */
  back(): void;
  quit(): void;
}

const NavigationContext = createContext<Navigation | undefined>(undefined);

export function NavigationProvider({ start, children }: { start: Route; children: ReactNode }) {
  const { exit } = useApp();
  const [stack, setStack] = useState<Route[]>([start]);
  const push = useCallback((route: Route) => setStack((current) => [...current, route]), []);
  const quit = useCallback(() => exit(), [exit]);
  const back = useCallback(() => {
    setStack((current) => {
      if (current.length <= 1) {
        exit();
        return current;
      }
      return current.slice(0, -1);
    });
  }, [exit]);
  const route = stack[stack.length - 1] ?? start;
  const value = useMemo(() => ({ route, depth: stack.length - 1, push, back, quit }), [route, stack.length, push, back, quit]);
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>;
}

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext);
  if (!navigation) throw new Error('useNavigation outside NavigationProvider');
  return navigation;
}
