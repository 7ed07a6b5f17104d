import { Text } from 'ink';
import { ScreenFrame } from '../components/screen-frame.js';

export function KappaScreen(_props: Record<string, unknown>) {
  return (
    <ScreenFrame title="Kappa" keys={[]}>
      <Text>placeholder</Text>
    </ScreenFrame>
  );
}
