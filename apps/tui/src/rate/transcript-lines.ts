import type { CalibrationMessage } from '@parley/config';
import { wrapText } from './wrap-text.js';

/** One screen line of a transcript: the role's label on a message's first line only. */
export interface TranscriptLine {
  role: CalibrationMessage['role'];
  /** The label column (`     user`), blank on continuation lines. */
  label: string;
  text: string;
}

const LABEL_WIDTH = 9;
/** Label, then ` │ ` before the message text. */
const TRANSCRIPT_GUTTER = LABEL_WIDTH + 3;

/** The chat layout of a transcript `columns` wide: each message wrapped beside its role. */
export function transcriptLines(transcript: readonly CalibrationMessage[], columns: number): TranscriptLine[] {
  const width = Math.max(10, columns - TRANSCRIPT_GUTTER);
  return transcript.flatMap((message) =>
    wrapText(message.content, width).map((text, index) => ({
      role: message.role,
      label: index === 0 ? message.role.padStart(LABEL_WIDTH) : ' '.repeat(LABEL_WIDTH),
      text,
    })),
  );
}
