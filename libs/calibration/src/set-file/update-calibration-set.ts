import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '@parley/core';
import { readTextFile } from '@parley/config';
import { parseDocument } from 'yaml';
import { writeFileAtomically } from './atomic-write.js';
import { CalibrationSetEditor } from './calibration-editor.js';
import { parseCalibrationSet } from './calibration-set-file.js';
import { withFileLock, type FileLockOptions } from './file-lock.js';
import { processIsAlive } from './process-alive.js';

export interface UpdateCalibrationSetOptions extends FileLockOptions {
  /** The text of a new set, when the file does not exist yet (else a missing file is an error). */
  initialText?: string;
}

/** The lock file that serialises saves of a calibration set. */
export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

/**
 * The one way `human_labelled.yaml` is written. Under a lock file, the current file is read again,
 * `change` edits it through the Document API (comments and key order survive), the result is
 * validated, and written atomically (temp file, fsync, rename). Because every save starts from the
 * file as it is now, two reviewers saving at once both keep their ratings; because of the rename,
 * a crash at any instant leaves either the old file or the new one.
 *
 * A file with problems is refused (ConfigError with file:line:column) and left alone. `change`
 * may throw a ConfigError to refuse an edit; nothing is written then either.
 */
export async function updateCalibrationSet<Result>(
  file: string,
  change: (editor: CalibrationSetEditor) => Result,
  options: UpdateCalibrationSetOptions = {},
): Promise<Result> {
  // A first import may name a folder that does not exist yet; the lock file lives in it.
  if (options.initialText !== undefined) mkdirSync(dirname(file), { recursive: true });
  return withFileLock(
    lockPathFor(file),
    () => {
      removeAbandonedTemporaryFiles(file);
      const text = readCurrentText(file, options.initialText);
      // Validated first (duplicate keys, aliases, nesting and schema, each with its line), then
      // parsed again as a document to edit. `yaml`'s own duplicate-key check is quadratic in the
      // keys of a mapping, and the validation above has already done it.
      const set = parseCalibrationSet(text, file);
      const document = parseDocument(text, { uniqueKeys: false });
      const editor = new CalibrationSetEditor(document, set, file);
      const result = change(editor);
      if (!editor.changed) return result;
      const written = editor.text();
      // Never write what we could not read back: a bug here must not cost a reviewer's ratings.
      parseCalibrationSet(written, file);
      writeFileAtomically(file, written);
      return result;
    },
    options,
  );
}

function readCurrentText(file: string, initialText: string | undefined): string {
  if (initialText !== undefined && !existsSync(file)) return initialText;
  const text = readTextFile(file);
  if (typeof text === 'string') return text;
  throw new ConfigError({ file, line: text.line, column: text.column, message: text.problem });
}

/**
 * A save killed between writing its temporary file and renaming it leaves that file behind. Under
 * the lock no save is in progress, so any of ours whose process is gone can go.
 */
function removeAbandonedTemporaryFiles(file: string): void {
  const prefix = `.${basename(file)}.`;
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number.parseInt(name.slice(prefix.length).split('.')[0] ?? '', 10);
    if (pid === process.pid || processIsAlive(pid)) continue;
    rmSync(join(dirname(file), name), { force: true });
  }
}
