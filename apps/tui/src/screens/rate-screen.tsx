import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function RateScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Rate" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
