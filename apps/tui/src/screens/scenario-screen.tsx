import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function ScenarioScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Scenario" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
