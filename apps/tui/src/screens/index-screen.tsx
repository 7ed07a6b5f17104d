import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function IndexScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Agents" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
