/**
 * What the CLI says about an error it did not expect (not a configuration problem, not a result):
 * one readable line, what to do about it, and the stack only when `PARLEY_DEBUG=1`. Such an error
 * means the run could not be evaluated, so the CLI exits 2, never 1 (which CI reads as a failing
 * gate).
 */
export function describeInternalError(error: unknown, env: NodeJS.ProcessEnv): string {
  const message = firstLine(error instanceof Error ? error.message : String(error));
  const code = errorCode(error);
  const lines = [`parley: internal error: ${message}${code !== undefined && !message.includes(code) ? ` (${code})` : ''}`, `  what to do: ${adviceFor(error, code, message)}`];
  if (debugging(env)) {
    lines.push(error instanceof Error && error.stack ? error.stack : String(error));
  } else {
    lines.push('  (set PARLEY_DEBUG=1 to see the stack)');
  }
  return `${lines.join('\n')}\n`;
}

export function debugging(env: NodeJS.ProcessEnv): boolean {
  return env.PARLEY_DEBUG !== undefined && env.PARLEY_DEBUG !== '' && env.PARLEY_DEBUG !== '0';
}

function adviceFor(error: unknown, code: string | undefined, message: string): string {
  if (code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|invalid ELF header|wrong ELF class/.test(message)) {
    return `a native module (better-sqlite3) does not fit this Node.js ${process.version}: run \`npm rebuild better-sqlite3\` (or \`npm ci\`) with the Node.js you run Parley with`;
  }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return 'part of the installation is missing: reinstall with `npm ci` (in a clone of Parley: `npm run build`)';
  if (code === 'ENOSPC') return 'the disk is full: free some space and run again';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'Parley may not write there: check the permissions of the folder (and of .parley/)';
  if (code === 'EMFILE' || code === 'ENFILE') return 'too many open files: lower --concurrency or raise the limit (ulimit -n)';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'another Parley process holds .parley/parley.db: wait for it to finish and run again';
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return '.parley/parley.db is damaged: move it aside (the run history starts afresh) and run again';
  if (code?.startsWith('SQLITE_')) return 'the run history .parley/parley.db could not be used: check that it is a file Parley may write';
  if (error instanceof RangeError && /heap|memory/i.test(message)) return 'Parley ran out of memory: run fewer scenarios at once (--shard, --concurrency)';
  return 'this is a bug in Parley; please report it with the output of the same command run with PARLEY_DEBUG=1';
}

function errorCode(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object' || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** The message's first line, so a multi-line message (a stack in disguise) stays one line. */
function firstLine(message: string): string {
  const line = message.split('\n').find((part) => part.trim() !== '') ?? 'unknown error';
  return line.length > 300 ? `${line.slice(0, 299)}…` : line.trim();
}
