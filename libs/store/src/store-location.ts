import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '@parley/core';

// Where the store is, apart from opening it (open-sql.ts): loading a suite records its store
// setting here, and `parley validate` loads suites, so this module imports nothing of the drivers,
// migrations or worker thread that opening brings (the CLI bundle then leaves them out of validate).

/** The environment variable that puts the store into a team's PostgreSQL database. */
export const databaseUrlVariable = 'PARLEY_DATABASE_URL';

/**
 * Where the store is: the PostgreSQL database named by `PARLEY_DATABASE_URL` when it is set, else
 * by the variable a loaded parley.yaml's `settings.store.url_env` names (an error when that one is
 * unset), otherwise (undefined) the SQLite file at `path` (`.parley/parley.db`, which stays the anchor of the run
 * folders beside it either way).
 */
export function storeUrlFrom(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env[databaseUrlVariable];
  if (value !== undefined && value.trim() !== '') return value;
  const url = suiteStoreUrl(env);
  // Set but empty (a CI secret a fork's pull request does not get): the fallback stays, said once.
  if (value !== undefined) {
    noticeOnce(
      `${databaseUrlVariable} is set but empty: using ${url === undefined ? 'the local store .parley/parley.db' : `the team store in ${suiteUrlVariable} (parley.yaml's settings.store.url_env)`}`,
    );
  }
  return url;
}

function suiteStoreUrl(env: NodeJS.ProcessEnv): string | undefined {
  if (suiteUrlVariable === undefined) return undefined;
  const named = env[suiteUrlVariable];
  if (named === undefined || named.trim() === '') {
    throw new ConfigError(
      `parley.yaml's settings.store.url_env names ${suiteUrlVariable}, which is not set: set it to the team store's postgres:// URL ` +
        `(or set ${databaseUrlVariable}, which wins; docs/team-store.md)`,
    );
  }
  return named;
}

/** Who is told what the store's location chose without being asked (the CLI prints it on stderr), and whether it was. */
let noticeListener: ((notice: string) => void) | undefined;
let noticed = false;

function noticeOnce(notice: string): void {
  if (noticed || noticeListener === undefined) return;
  noticed = true;
  noticeListener(notice);
}

/**
 * From now until the returned stop is called, `listener` is told (once) when the store falls back
 * because \`PARLEY_DATABASE_URL\` is set but empty. The CLI listens for the length of one command.
 */
export function onStoreNotice(listener: (notice: string) => void): () => void {
  noticeListener = listener;
  noticed = false;
  return () => {
    if (noticeListener === listener) noticeListener = undefined;
  };
}

/**
 * Whether there is a store at `path` to read: always with a team store (PostgreSQL: the first open
 * creates its tables, and another machine may have written it), else when the SQLite file exists.
 * Commands that only read ask this first, so that reading never creates `.parley/parley.db`.
 */
export function storeExists(path: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return path === ':memory:' || storeUrlFor(path, env) !== undefined || existsSync(path);
}

/** The SQLite files (resolved paths) kept local by keepStoreLocal, with how many holders each has. */
const localStores = new Map<string, number>();

/**
 * From now until the returned release is called, the store at `path` is the SQLite file there even
 * when a team store is configured: every store module opening `path` (run history, judge cache,
 * spend, outbox …) gets that file. Only the given path is affected; any other path still follows
 * storeUrlFrom. Used for a scratch run whose history nobody else should see (`parley init`'s
 * starter recording, RunOptions.localStore).
 */
export function keepStoreLocal(path: string): () => void {
  const key = resolve(path);
  localStores.set(key, (localStores.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const holders = (localStores.get(key) ?? 1) - 1;
    if (holders === 0) localStores.delete(key);
    else localStores.set(key, holders);
  };
}

/** The team store's URL for the store at `path` (storeUrlFrom), or undefined when that path is kept local (keepStoreLocal). */
export function storeUrlFor(path: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (path !== ':memory:' && localStores.has(resolve(path))) return undefined;
  return storeUrlFrom(env);
}

/** The variable the loaded parley.yaml's `settings.store.url_env` names, if any. */
let suiteUrlVariable: string | undefined;

/**
 * Takes in a loaded parley.yaml's `settings.store`: from now on this process's store is the
 * PostgreSQL database whose URL the named variable holds, unless `PARLEY_DATABASE_URL` is set
 * (which wins). The variable is read when the store is opened, not here, so that reading a suite
 * (`parley validate`) never needs it. Called where a command loads the suite it runs
 * (the runner's `loadSuiteForRun`, `parley runs prune`), before any store is opened.
 */
export function useSuiteStoreSetting(store: { url_env: string } | undefined): void {
  suiteUrlVariable = store?.url_env;
}
