import { ConfigError, sha256Hex } from '@parley/core';
import { readTextFile } from '@parley/config';

/** The file of the rubric in a calibration folder (docs/calibration.md, "The folder"). */
export const RUBRIC_FILE = 'rubric.md';

/** `calibration/rubric.md`: what reviewers and judges are told each score means. */
export interface CalibrationRubric {
  file: string;
  /** From the front matter; must equal the set's `rubric_version`. */
  version: string;
  /** The rubric without its front matter: what reviewers read and judges are given. */
  text: string;
  /** sha256 of the whole file, stored with every session: a rubric edited under an unchanged version shows. */
  sha256: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/**
 * Reads a rubric file, which starts with a front matter naming its version:
 *
 *     ---
 *     version: 1.0.0
 *     ---
 *
 * A missing file, a missing or unreadable version, or an empty rubric is a ConfigError.
 */
export function loadRubric(file: string): CalibrationRubric {
  const content = readTextFile(file);
  if (typeof content !== 'string') throw new ConfigError({ file, message: content.problem });
  const text = content.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(text);
  const version = match?.[1]
    ?.split(/\r?\n/)
    .map((line) => /^version:\s*["']?([^"'\s#]+)["']?\s*(?:#.*)?$/.exec(line)?.[1])
    .find((value) => value !== undefined);
  if (match === null || version === undefined) {
    throw new ConfigError({ file, line: 1, column: 1, message: 'a rubric starts with a front matter that names its version: "---", "version: 1.0.0", "---"' });
  }
  const body = text.slice(match[0].length).trim();
  if (body === '') throw new ConfigError({ file, line: match[0].split('\n').length, column: 1, message: 'the rubric is empty' });
  return { file, version, text: body, sha256: sha256Hex(content) };
}
