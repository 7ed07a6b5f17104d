import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { useStdout } from 'ink';

export interface TerminalSize {
  columns: number;
  rows: number;
}

/** Smallest terminal every screen must fit and stay usable in. */
export const MIN_SIZE: TerminalSize = { columns: 80, rows: 24 };

const FixedSizeContext = createContext<TerminalSize | undefined>(undefined);

/** Pins the size (tests render at 80×24 whatever the fake stdout says). */
export function FixedTerminalSize({ size, children }: { size: TerminalSize; children: ReactNode }) {
  return <FixedSizeContext.Provider value={size}>{children}</FixedSizeContext.Provider>;
}

/** The terminal's size, following resizes; never smaller than 80×24 would make layouts negative. */
export function useTerminalSize(): TerminalSize {
  const fixed = useContext(FixedSizeContext);
  // Ink types its stdout as a plain writable stream; a terminal's (and the test double's) has a size.
  const stdout = useStdout().stdout as NodeJS.WriteStream;
  const read = (): TerminalSize => ({ columns: stdout.columns || MIN_SIZE.columns, rows: stdout.rows || MIN_SIZE.rows });
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  });
  return fixed ?? size;
}
