import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function RunsScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Runs" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
