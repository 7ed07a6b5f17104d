import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Some tests run the real `parley` and `parley-fake-llm` binaries as subprocesses, which execute
 * compiled JavaScript. Build first (incremental: a no-op when dist is up to date).
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('.', import.meta.url));
  execFileSync(process.execPath, [fileURLToPath(new URL('node_modules/typescript/bin/tsc', import.meta.url)), '-b', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
}
