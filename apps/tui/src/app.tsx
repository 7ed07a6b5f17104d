import { NavigationProvider, useNavigation } from './navigation.js';
import type { Route } from './routes.js';
import { IndexScreen } from './screens/index-screen.js';
import { KappaCellScreen } from './screens/kappa-cell-screen.js';
import { KappaScreen } from './screens/kappa-screen.js';
import { LiveRunScreen } from './screens/live-run-screen.js';
import { RateScreen } from './screens/rate-screen.js';
import { RerunScreen } from './screens/rerun-screen.js';
import { RunScreen } from './screens/run-screen.js';
import { RunsScreen } from './screens/runs-screen.js';
import { ScenarioScreen } from './screens/scenario-screen.js';

/** The TUI: a stack of screens starting at `start`. */
export function App({ start }: { start: Route }) {
  return (
    <NavigationProvider start={start}>
      <CurrentScreen />
    </NavigationProvider>
  );
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
    case 'rerun':
      return <RerunScreen key={`${route.runId}/${route.scenarioId}`} runId={route.runId} scenarioId={route.scenarioId} />;
    case 'rate':
      return <RateScreen />;
    case 'kappa':
      return <KappaScreen />;
    case 'kappa-cell':
      return <KappaCellScreen cell={route.cell} />;
    case 'live':
      return <LiveRunScreen />;
  }
}
