import { describe, expect, it } from 'vitest';
import { Text } from 'ink';
import { ScreenFrame } from './components/screen-frame.js';
import { NavigationProvider } from './navigation.js';
import { renderWithProviders, press, waitForFrame } from './test-support/render-screen.js';

describe('screen frame', () => {
  it('shows the title, the body and the keys, and q on the first screen quits', async () => {
    const rendered = renderWithProviders(
      <NavigationProvider start={{ screen: 'index' }}>
        <ScreenFrame title="Agents" status="3 agents" keys={[['Enter', 'open']]}>
          <Text>body text</Text>
        </ScreenFrame>
      </NavigationProvider>,
    );
    const frame = await waitForFrame(rendered, (text) => text.includes('body text'));
    expect(frame).toContain('Agents');
    expect(frame).toContain('3 agents');
    expect(frame).toMatch(/Enter\s+open/);
    expect(frame).toMatch(/q\s+quit/);
    expect(frame.split('\n').length).toBeLessThanOrEqual(24);
    await press(rendered, 'q');
  });
});
