import { existsSync } from 'node:fs';
import { writeFileAtomically } from '../set-file/atomic-write.js';
import { loadCalibrationSet } from '../set-file/calibration-set-file.js';
import { DEFAULT_AXES } from '../set-file/new-calibration-set.js';

/**
 * A set without `rubric.md` cannot be rated (reviewers and judges read the rubric): when the
 * folder has none, a starter rubric of the set's version is written (never over an existing one).
 * Returns the file written, if any. Used by `parley calibrate import` and triage's send to
 * calibration, the two ways a set starts.
 */
export function writeStarterRubricIfMissing(rubricFile: string, setFile: string): string | undefined {
  if (existsSync(rubricFile)) return undefined;
  writeFileAtomically(rubricFile, starterRubricText(loadCalibrationSet(setFile).rubric_version));
  return rubricFile;
}

/**
 * A rubric for a calibration folder that has none yet (the first items imported, or sent from
 * triage): the default axes with a plain meaning for each score, so that the new set can be rated
 * at once. It says at the top that it is a starting point; a team edits it (and bumps the version of both the
 * rubric and the set) to describe its own agents.
 */
function starterRubricText(version: string): string {
  return `---
version: ${version}
---
# Calibration rubric (starter)

Written by Parley when the first items were added to this calibration set. Edit it to describe your
agents before the first rating session; reviewers and judges read this same text. Changing what a
score means later needs a new version here and in human_labelled.yaml (\`rubric_version\`).

Rate the **assistant's** side of the conversation on each axis from 1 (worst) to 5 (best). Rate
what the assistant wrote, not the customer, and not the masking (\`<name>\`, masked digits).

## ${DEFAULT_AXES[0]}: did the assistant understand and act on what the user wanted?

- **5** Understood every request, including changes and follow-up questions, and acted on exactly that.
- **4** Understood the request; one small detail needed a second message.
- **3** Got the main request but missed or mishandled a part of it.
- **2** Misread the request in a way that matters; the user had to push back.
- **1** Did not understand the request at all, or ignored it.

## ${DEFAULT_AXES[1]}: does it read like a capable person writing in that language?

- **5** Fluent, idiomatic, warm and concise, in the user's language.
- **4** Natural with a minor stiffness or an awkward phrase.
- **3** Understandable but stiff, formulaic or translated-sounding, or in another language than the user's.
- **2** Robotic, repetitive or confusing.
- **1** Broken, incoherent, or the same canned text whatever the user says.

## ${DEFAULT_AXES[2]}: is it respectful and right for the user's culture and situation?

- **5** Respectful in the user's own conventions (greetings, forms of address, faith, circumstances).
- **4** Respectful, with a small miss.
- **3** Neutral: nothing offensive, but no attention to the user's situation.
- **2** Dismissive or pushy.
- **1** Rude, insulting or contemptuous.
`;
}
