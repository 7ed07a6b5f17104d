import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isConfigError } from '@parley/core';

/**
 * For commands that read the store but take no suite (`runs list`, `runs show`, `cost`, `cache`,
 * `compare`, `show-report`): when the folder they run in holds a parley.yaml whose
 * `settings.store.url_env` names the team store, they read that store, as `parley run` there
 * writes it (unset, that variable stops them with exit 2 naming it, as it stops `run`).
 * `PARLEY_DATABASE_URL` still wins. A folder without parley.yaml, or with one that does not load
 * (`validate` and `run` report its problems), leaves the store to `PARLEY_DATABASE_URL` alone.
 */
export async function useFolderStoreSetting(cwd: string): Promise<void> {
  if (!existsSync(join(cwd, 'parley.yaml'))) return;
  const { loadSuiteConfig } = await import('@parley/config');
  let store: { url_env: string } | undefined;
  try {
    store = loadSuiteConfig(cwd).config.settings?.store;
  } catch (error) {
    if (isConfigError(error)) return;
    throw error;
  }
  (await import('@parley/store')).useSuiteStoreSetting(store);
}
