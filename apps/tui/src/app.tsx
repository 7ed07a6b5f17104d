import { useEffect } from 'react';
import { useStdin } from 'ink';
import { NavigationProvider, useNavigation } from './navigation.js';
import type { Route } from './routes.js';
import { IndexScreen } from './screens/index-screen.js';
import { KappaScreen } from './screens/kappa-screen.js';
import { LiveRunScreen } from './screens/live-run-screen.js';
import { RateScreen } from './screens/rate-screen.js';
import { RunScreen } from './screens/run-screen.js';
import { RunsScreen } from './screens/runs-screen.js';
import { ScenarioScreen } from './screens/scenario-screen.js';

/** The TUI: a stack of screens starting at `start`. */
export function App({ start }: { start: Route }) {
  return (
    <NavigationProvider start={start}>
      <HoldRawMode />
      <CurrentScreen />
    </NavigationProvider>
  );
}

/**
 * Keeps the terminal in raw mode for the app's whole life. Ink counts raw-mode users and turns it
 * off when the last `useInput` unmounts: between one screen unmounting and the next mounting, a
 * key typed at that instant was echoed by the terminal or lost.
 */
function HoldRawMode() {
  const { setRawMode, isRawModeSupported } = useStdin();
  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode, isRawModeSupported]);
  return null;
}

function CurrentScreen() {
  const { route } = useNavigation();
  switch (route.screen) {
    case 'index':
      return <IndexScreen />;
    case 'runs':
      return <RunsScreen {...(route.agent ? { agent: route.agent } : {})} />;
    case 'run':
      return <RunScreen key={route.runId} runId={route.runId} />;
    case 'scenario':
      return <ScenarioScreen key={`${route.runId}/${route.scenarioId}`} runId={route.runId} scenarioId={route.scenarioId} />;
    case 'rate':
      return <RateScreen />;
    case 'kappa':
      return <KappaScreen />;
    case 'live':
      return <LiveRunScreen />;
  }
}
