/**
 * How to start a program or a shell command on this platform. On Linux and macOS a program starts
 * as it is and a command line goes to `/bin/sh -c`. On Windows `npx`, `npm` and every other
 * `.cmd`/`.bat` shim can only be started through `cmd.exe` (Node refuses to spawn them directly
 * since its April 2024 security releases), so anything that is not an `.exe` goes through the
 * command interpreter named by `ComSpec`, each argument quoted for it.
 */
export interface SpawnPlan {
  file: string;
  args: string[];
  /** Windows: pass `args` to cmd.exe as written (they are quoted here already). */
  windowsVerbatimArguments?: boolean;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** A shell command line (isolation hooks): `/bin/sh -c` on POSIX, `cmd.exe /d /s /c` on Windows. */
export function shellCommandPlan(command: string, platform: string = process.platform, env: Environment = process.env): SpawnPlan {
  if (platform !== 'win32') return { file: '/bin/sh', args: ['-c', command] };
  return { file: commandInterpreter(env), args: ['/d', '/s', '/c', `"${command}"`], windowsVerbatimArguments: true };
}

/** A program and its arguments (command agents): as they are on POSIX and for a Windows `.exe`; else through cmd.exe. */
export function programPlan(argv: readonly string[], platform: string = process.platform, env: Environment = process.env): SpawnPlan {
  const [program, ...args] = argv;
  if (program === undefined) throw new Error('programPlan: empty command');
  if (platform !== 'win32' || /\.(exe|com)$/i.test(program)) return { file: program, args: [...args] };
  const line = [quoteProgramForCmd(program), ...args.map(quoteArgumentForCmd)].join(' ');
  return { file: commandInterpreter(env), args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

/** Characters cmd.exe treats specially outside quotes it tracks itself; `^` makes each literal. */
const CMD_SPECIAL = /([()\][%!^"`<>&|;, *?])/g;

/**
 * One argument as a Windows program reads it back (the C runtime's rules: backslashes before a
 * quote are doubled and the quote escaped, the whole wrapped in quotes), then with cmd.exe's
 * special characters escaped with `^`, so `&`, `|` and `%VAR%` reach the program literally.
 */
export function quoteArgumentForCmd(argument: string): string {
  const forRuntime = `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  return forRuntime.replace(CMD_SPECIAL, '^$1');
}

function quoteProgramForCmd(program: string): string {
  return program.replace(CMD_SPECIAL, '^$1');
}

function commandInterpreter(env: Environment): string {
  return env['ComSpec'] ?? env['COMSPEC'] ?? 'cmd.exe';
}
