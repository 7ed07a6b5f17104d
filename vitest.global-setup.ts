import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Some tests run the real `parley` and `parley-fake-llm` binaries as subprocesses, which execute
 * compiled JavaScript. Build first (`npm run build`: incremental tsc, then the CLI bundle).
 */
export default function setup(): void {
  // `npx vitest` sets npm_command=exec, which makes a `parley` the tests start print `npx parley …`
  // in its hints (apps/cli/src/program/parley-command.ts), and `npm test` does not: the tests see
  // the same Parley however they were started (parley-command.test.ts sets it where it tests it).
  delete process.env.npm_command;
  // For quick runs of one library's tests while other packages are mid-edit.
  if (process.env.PARLEY_SKIP_BUILD === '1' || process.env.PARLEY_BUILT_FOR_TESTS === '1') return;
  const root = fileURLToPath(new URL('.', import.meta.url));
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
  // Each test project (vitest.config.ts) runs the global setup; one build serves them all.
  process.env.PARLEY_BUILT_FOR_TESTS = '1';
}
