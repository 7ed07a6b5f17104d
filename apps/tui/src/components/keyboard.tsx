import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { useInput, useStdin, type Key } from 'ink';

export type KeyHandler = (input: string, key: Key) => void;

interface Registration {
  current: KeyHandler;
  /** While an exclusive handler is registered, the others get no keys (but Ctrl-C). */
  exclusive: boolean;
}

type Registry = Set<Registration>;

/** The handlers a key goes to: the newest exclusive one if any, else all of them. */
function receivers(registry: Registry): Registration[] {
  const all = [...registry];
  const exclusive = all.filter((registration) => registration.exclusive);
  return exclusive.length > 0 ? exclusive.slice(-1) : all;
}

const KeyboardContext = createContext<Registry | undefined>(undefined);

/**
 * One listener on the terminal for the whole app, handing keys to the screens' handlers one at a
 * time, each after React has drawn what the previous one changed.
 *
 * With Ink's own `useInput`, keys typed quickly (or arriving in one read) were all handled by the
 * screen and state of the first: the key after Enter went to the screen just left, a second ↓
 * moved from the stale row. Here a key waits for the previous key's render, and handlers are
 * registered in a layout effect (during the commit), so it always meets the current screen. The
 * terminal also stays in raw mode for the app's whole life (Ink turns it off whenever its last
 * `useInput` unmounts, which made keys typed between two screens echo).
 */
export function KeyboardProvider({ children }: { children: ReactNode }) {
  const registry = useMemo<Registry>(() => new Set(), []);
  const { setRawMode, isRawModeSupported } = useStdin();
  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    return () => setRawMode(false);
  }, [setRawMode, isRawModeSupported]);
  const pending = useRef<Array<[string, Key]>>([]);
  const draining = useRef(false);
  useInput((input, key) => {
    if (key.ctrl && input === 'c') {
      // An interrupt does not queue behind other keys: a second Ctrl-C must act at once.
      for (const handler of [...registry]) handler.current(input, key);
      return;
    }
    pending.current.push(...splitChunk(input, key));
    if (draining.current) return;
    draining.current = true;
    void (async () => {
      try {
        for (let next = pending.current.shift(); next !== undefined; next = pending.current.shift()) {
          for (const handler of receivers(registry)) handler.current(next[0], next[1]);
          // React renders what this key changed in a microtask: the next key waits for that render,
          // so it meets the screen (and the state) the previous key led to.
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      } finally {
        draining.current = false;
      }
    })();
  });
  return <KeyboardContext.Provider value={registry}>{children}</KeyboardContext.Provider>;
}

/**
 * Ink's input event as the keys in it. Ink passes text read in one chunk on as one string, Enter
 * and Tab included (`kk` from a held key, `jG` or `4?` typed ahead, `abc\r` from `tmux send-keys
 * abc Enter`): a screen comparing `input` with one key would drop them all. Here every character
 * becomes its own key (an upper-case letter with `shift`, as Ink marks a single one), and each
 * Enter (`\r`, `\n` or `\r\n`) and Tab too, in order. Text fields get the same text, a character
 * at a time.
 */
export function splitChunk(input: string, key: Key): Array<[string, Key]> {
  if (input.length <= 1 || key.ctrl || key.meta || key.escape) return [[input, key]];
  const keys: Array<[string, Key]> = [];
  for (const part of input.split(/(\r\n|\r|\n|\t)/)) {
    if (part === '') continue;
    if (part === '\t') keys.push(['', { ...key, tab: true }]);
    else if (part === '\r\n' || part === '\r' || part === '\n') keys.push(['', { ...key, return: true }]);
    else for (const character of Array.from(part)) keys.push([character, { ...key, shift: /^[A-Z]$/.test(character) }]);
  }
  return keys;
}

/**
 * Like Ink's `useInput` (same arguments), delivered through the app's KeyboardProvider. An
 * `exclusive` handler (an overlay, a question) takes every key from the others while it is active;
 * Ctrl-C still reaches all of them.
 */
export function useKeys(handler: KeyHandler, options: { isActive?: boolean; exclusive?: boolean } = {}): void {
  const registry = useContext(KeyboardContext);
  if (!registry) throw new Error('useKeys outside KeyboardProvider');
  const exclusive = options.exclusive ?? false;
  const latest = useRef<Registration>({ current: handler, exclusive });
  latest.current.current = handler;
  const isActive = options.isActive ?? true;
  useLayoutEffect(() => {
    if (!isActive) return;
    const registration = latest.current;
    registration.exclusive = exclusive;
    registry.add(registration);
    return () => {
      registry.delete(registration);
    };
  }, [registry, isActive, exclusive]);
}
