import { Text } from 'ink';
import type { Colour } from '../theme.js';

const BLOCKS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'] as const;
/** Drawn where a value is unknown (a run that evaluated nothing, an undefined kappa). */
export const SPARK_GAP = '·';

/**
 * One character per value, the newest on the right: values in [low, high] become ▁…█ (outside
 * values are clamped), null becomes `·`. Only the last `width` values are drawn.
 */
export function sparklineText(values: ReadonlyArray<number | null>, width: number, range: { low: number; high: number } = { low: 0, high: 1 }): string {
  const span = range.high - range.low;
  return values
    .slice(Math.max(0, values.length - width))
    .map((value) => {
      if (value === null || !Number.isFinite(value)) return SPARK_GAP;
      const share = span <= 0 ? 1 : Math.min(1, Math.max(0, (value - range.low) / span));
      return BLOCKS[Math.round(share * (BLOCKS.length - 1))]!;
    })
    .join('');
}

export interface SparklineProps {
  values: ReadonlyArray<number | null>;
  width: number;
  range?: { low: number; high: number };
  colour?: Colour | undefined;
}

/** A sparkline padded to `width` so the columns after it stay aligned. */
export function Sparkline({ values, width, range, colour }: SparklineProps) {
  const text = sparklineText(values, width, range);
  return <Text color={colour}>{text.padEnd(width)}</Text>;
}
