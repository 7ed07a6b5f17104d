import { useState } from 'react';
import { Text } from 'ink';
import { describe, expect, it } from 'vitest';
import { NavigationProvider, useNavigation } from '../navigation.js';
import { renderWithProviders, waitForFrame } from '../test-support/render-screen.js';
import { splitChunk, useKeys } from './keyboard.js';

/** Every key each screen's handler received, in order. */
const heard: string[] = [];

function First() {
  const navigation = useNavigation();
  useKeys((input, key) => {
    heard.push(`first:${key.return ? 'Enter' : input}`);
    if (key.return) navigation.push({ screen: 'kappa' });
  });
  return <Text>first screen</Text>;
}

function Second() {
  const [last, setLast] = useState('nothing');
  useKeys((input, key) => {
    heard.push(`second:${key.downArrow ? 'Down' : input}`);
    setLast(input);
  });
  return <Text>second heard {last}</Text>;
}

function Screens() {
  const { route } = useNavigation();
  return route.screen === 'index' ? <First /> : <Second />;
}

describe('keyboard', () => {
  it('gives the key typed right after a screen change to the new screen, not to the one just left', async () => {
    const rendered = renderWithProviders(
      <NavigationProvider start={{ screen: 'index' }}>
        <Screens />
      </NavigationProvider>,
    );
    await waitForFrame(rendered, (frame) => frame.includes('first screen'));
    heard.length = 0;
    // Both keys in the same turn of the event loop, before React has drawn the second screen.
    rendered.stdin.write('\r');
    rendered.stdin.write('x');
    await waitForFrame(rendered, (text) => text.includes('second heard x'));
    expect(heard).toEqual(['first:Enter', 'second:x']);
  });

  it('hands a key to every active handler, and none to an inactive one', async () => {
    function Pair() {
      const [log, setLog] = useState<string[]>([]);
      useKeys((input) => setLog((current) => [...current, `a:${input}`]));
      useKeys((input) => setLog((current) => [...current, `b:${input}`]), { isActive: false });
      useKeys((input) => setLog((current) => [...current, `c:${input}`]));
      return <Text>log {log.join(' ')}</Text>;
    }
    const rendered = renderWithProviders(<Pair />);
    await waitForFrame(rendered, (frame) => frame.includes('log'));
    rendered.stdin.write('k');
    expect(await waitForFrame(rendered, (frame) => frame.includes('a:k'))).toContain('log a:k c:k');
  });

  it('splits a chunk read at once into its keys (every character, Enter and Tab), each key after the previous render', async () => {
    function Log() {
      const [log, setLog] = useState<string[]>([]);
      useKeys((input, key) => setLog((current) => [...current, key.return ? 'Enter' : key.tab ? 'Tab' : input]));
      return <Text>log {log.join('|')}</Text>;
    }
    const rendered = renderWithProviders(<Log />);
    await waitForFrame(rendered, (frame) => frame.includes('log'));
    rendered.stdin.write('abc\rx\r\n\tyz\n');
    expect(await waitForFrame(rendered, (frame) => frame.includes('z|Enter'))).toContain('log a|b|c|Enter|x|Enter|Tab|y|z|Enter');
    expect(splitChunk('jG', noKey())).toEqual([
      ['j', noKey()],
      ['G', { ...noKey(), shift: true }],
    ]);
  });

  it('leaves a single key and Ctrl or Meta keys as Ink read them', () => {
    const plain = { ...noKey(), return: true };
    expect(splitChunk('', plain)).toEqual([['', plain]]);
    expect(splitChunk('j', noKey())).toEqual([['j', noKey()]]);
    const ctrl = { ...noKey(), ctrl: true };
    expect(splitChunk('a\r', ctrl)).toEqual([['a\r', ctrl]]);
  });
});

/** A Key with nothing pressed but the text. */
function noKey(): Parameters<typeof splitChunk>[1] {
  return {
    upArrow: false,
    downArrow: false,
    leftArrow: false,
    rightArrow: false,
    pageDown: false,
    pageUp: false,
    home: false,
    end: false,
    return: false,
    escape: false,
    ctrl: false,
    shift: false,
    tab: false,
    backspace: false,
    delete: false,
    meta: false,
    super: false,
    hyper: false,
    capsLock: false,
    numLock: false,
  };
}
