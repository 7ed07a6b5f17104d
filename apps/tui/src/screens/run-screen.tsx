import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function RunScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Run" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
