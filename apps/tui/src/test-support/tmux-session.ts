import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real terminal for end-to-end tests: a detached tmux session of 80×24 running one command.
 * Screens are read with `capture-pane`; waiting polls the screen for a condition (bounded), it
 * never sleeps a fixed time.
 *
 * Each session has a tmux server of its own (its socket: {@link socketOf}). On one shared server, a test
 * killing the last session stops the server while another test's `new-session` is connecting
 * to it, and that one fails with "server exited unexpectedly" (seen in CI with the test files
 * running in parallel).
 */
export class TmuxSession {
  private constructor(readonly name: string) {}

  /**
   * Whether the end-to-end tests can run here: tmux is installed. Under CI (`CI=true`, where
   * `.ci/run` installs tmux) this is always true, so a missing tmux fails those tests instead of
   * skipping them unnoticed.
   */
  static available(): boolean {
    if (process.env.CI === 'true') return true;
    return TmuxSession.installed();
  }

  static installed(): boolean {
    try {
      execFileSync('tmux', ['-V'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Starts `command` in `cwd`. `env` replaces the session's environment for the command; CI is
   * removed because Ink renders only the final frame when it believes it runs in CI.
   */
  static start(name: string, command: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; columns?: number; rows?: number }): TmuxSession {
    const env: NodeJS.ProcessEnv = { ...process.env, ...options.env, TERM: 'xterm-256color' };
    delete env.CI;
    delete env.GITHUB_ACTIONS;
    const exports = Object.entries(env)
      .filter(([key, value]) => value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      .map(([key, value]) => `${key}=${shellQuote(value as string)}`);
    // The pane stays after the command ends (remain-on-exit) so the last screen can be read.
    const script = `env -i ${exports.join(' ')} ${command.map(shellQuote).join(' ')}; echo "[exit $?]"; sleep 600`;
    tmux(name, ['new-session', '-d', '-s', name, '-x', String(options.columns ?? 80), '-y', String(options.rows ?? 24), '-c', options.cwd, 'sh', '-c', script]);
    return new TmuxSession(name);
  }

  /**
   * A shell (`sh`, prompt `$ `) in `cwd` with exactly `env` (plus TERM), for tests of what the TUI
   * leaves behind on the shell's screen. Everything written to the pane is also appended to
   * `rawFile` when given, escape sequences included.
   */
  static shell(name: string, options: { cwd: string; env: NodeJS.ProcessEnv; rawFile?: string; columns?: number; rows?: number }): TmuxSession {
    const env: NodeJS.ProcessEnv = { ...options.env, TERM: 'xterm-256color', PS1: '$ ' };
    const exports = Object.entries(env)
      .filter(([key, value]) => value !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      .map(([key, value]) => `${key}=${shellQuote(value as string)}`);
    tmux(name, ['new-session', '-d', '-s', name, '-x', String(options.columns ?? 80), '-y', String(options.rows ?? 24), '-c', options.cwd, `env -i ${exports.join(' ')} sh`]);
    if (options.rawFile) tmux(name, ['pipe-pane', '-o', '-t', name, `cat >> ${shellQuote(options.rawFile)}`]);
    return new TmuxSession(name);
  }

  /** Types a command line and Enter. */
  run(command: string[]): void {
    this.text(command.map(shellQuote).join(' '));
    this.keys('Enter');
  }

  /** Resizes the terminal, as a user dragging the window would (the app gets SIGWINCH). */
  resize(columns: number, rows: number): void {
    tmux(this.name, ['resize-window', '-t', this.name, '-x', String(columns), '-y', String(rows)]);
  }

  screen(): string {
    return tmux(this.name, ['capture-pane', '-p', '-t', this.name]);
  }

  /** The screen with its colours and attributes as escape sequences (`capture-pane -e`). */
  styledScreen(): string {
    return tmux(this.name, ['capture-pane', '-p', '-e', '-t', this.name]);
  }

  /** Sends tmux key names (`Enter`, `Tab`, `Left`, `Escape`, `C-c`) or literal text with `literal`. */
  keys(...keys: string[]): void {
    tmux(this.name, ['send-keys', '-t', this.name, ...keys]);
  }

  text(text: string): void {
    tmux(this.name, ['send-keys', '-t', this.name, '-l', text]);
  }

  /** Pid of the command running in the pane's shell (the shell's child). */
  commandPid(): number {
    const shellPid = tmux(this.name, ['display-message', '-p', '-t', this.name, '#{pane_pid}']).trim();
    const children = execFileSync('pgrep', ['-P', shellPid], { encoding: 'utf8' }).trim().split('\n');
    return Number(children[0]);
  }

  /**
   * Polls the screen until `predicate` holds; throws with the last screen after `timeoutMs`. The
   * bound is for failing tests only (a passing one returns as soon as the screen matches), and is
   * long because a TUI process starting on a loaded machine can take tens of seconds.
   */
  async waitFor(predicate: (screen: string) => boolean, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let screen = this.screen();
    while (!predicate(screen)) {
      if (Date.now() > deadline) throw new Error(`tmux screen never matched; last screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      screen = this.screen();
    }
    return screen;
  }

  /** Ends the session and with it its own tmux server. */
  kill(): void {
    try {
      tmux(this.name, ['kill-server']);
    } catch {
      // already gone
    }
    rmSync(socketOf(this.name), { force: true });
  }
}

/** The socket of the tmux server of the session `name` (tmux leaves it behind when the server ends). */
function socketOf(name: string): string {
  return join(tmpdir(), `parley-tmux-${name}`);
}

/** Runs a tmux command on the server of the session `name`; returns what it printed. */
function tmux(name: string, args: string[]): string {
  return execFileSync('tmux', ['-S', socketOf(name), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
