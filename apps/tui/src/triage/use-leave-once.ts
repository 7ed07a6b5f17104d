import { useCallback, useLayoutEffect, useRef } from 'react';

/**
 * Returns `leave(go)`, which runs `go` (opening another screen) at most once while this screen is
 * shown. Keys typed quickly would otherwise open a screen twice: two Enters read in one chunk both
 * reach this screen before React has replaced it, and Ink moves key listeners to the next screen
 * only after drawing it, so a key typed in that instant still reaches the screen just left.
 */
export function useLeaveOnce(): (go: () => void) => void {
  const left = useRef(false);
  // A layout effect's cleanup runs while React commits the next screen, before Ink draws it.
  useLayoutEffect(() => {
    left.current = false;
    return () => {
      left.current = true;
    };
  }, []);
  return useCallback((go: () => void) => {
    if (left.current) return;
    left.current = true;
    go();
  }, []);
}
