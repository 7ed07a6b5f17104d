import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How a person runs this Parley from their shell, for the commands Parley prints to be pasted
 * (`finish it with: …`, `Re-record with: …`, `next: …`): `parley` when the first `parley` on PATH
 * is this very program (a global install, or PATH holding node_modules/.bin as inside `npm run`
 * scripts), else `npx parley` (a project's local install, the usual case, is not on PATH).
 * Under `npx parley …` (npm sets npm_command=exec) npx put node_modules/.bin on PATH for this
 * process only, not for the person's shell: the answer is `npx parley`, as they typed it.
 *
 * `bin` is the running bin file (bin/parley.js, as Node resolved it); without one (Parley run
 * in-process, as tests and the API do) the answer is `parley`. Checked only when a hint is made,
 * never at start-up.
 */
function parleyCommandFor(bin: string | undefined, env: NodeJS.ProcessEnv): string {
  if (bin === undefined) return 'parley';
  if (env.npm_command === 'exec') return 'npx parley';
  const running = realPath(bin);
  const onPath = firstOnPath('parley', env.PATH ?? '');
  return running !== undefined && onPath !== undefined && realPath(onPath) === running ? 'parley' : 'npx parley';
}

/** {@link parleyCommandFor}, computed on the first call and then remembered. */
export function lazyParleyCommand(bin: string | undefined, env: NodeJS.ProcessEnv): () => string {
  let command: string | undefined;
  return () => (command ??= parleyCommandFor(bin, env));
}

/** The file the shell runs for `name`: the first executable of that name in PATH's folders. */
function firstOnPath(name: string, path: string): string | undefined {
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here (or not executable): the shell looks further
    }
  }
  return undefined;
}

function realPath(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}
