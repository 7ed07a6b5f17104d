import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function LiveRunScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Live run" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
