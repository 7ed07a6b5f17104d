import { useMemo, useState } from 'react';
import { openStore, storeExists, type Store } from '@parley/store';
import { useServices } from '../tui-context.js';

/** What a screen got from the run history. */
export type StoreRead<Value> =
  /** No `.parley/parley.db` yet: nothing was ever run here. */
  | { kind: 'missing' }
  | { kind: 'read'; value: Value }
  /** The store could not be opened or read (a newer Parley's database, a corrupt file). */
  | { kind: 'failed'; message: string };

/**
 * Reads from the store at `services.storePath` while rendering, so the first frame already shows
 * the data (the store is synchronous SQLite). The store is opened for the read and closed right
 * after: nothing stays open while the screen waits for keys, and another `parley run` can write
 * meanwhile. A store that does not exist yet is not created. `reload()` reads again (after an
 * action changed the store, or to fetch a longer page).
 */
export function useStoreRead<Value>(read: (store: Store) => Value, dependencies: readonly unknown[]): StoreRead<Value> & { reload(): void } {
  const { storePath } = useServices();
  const [generation, setGeneration] = useState(0);
  const outcome = useMemo(
    () => readStore(storePath, read),
    // `read` is a new closure on every render; what it reads from is in `dependencies`.
    [storePath, generation, ...dependencies],
  );
  return { ...outcome, reload: () => setGeneration((current) => current + 1) };
}

function readStore<Value>(storePath: string, read: (store: Store) => Value): StoreRead<Value> {
  if (!storeExists(storePath)) return { kind: 'missing' };
  let store: Store | undefined;
  try {
    store = openStore(storePath);
    return { kind: 'read', value: read(store) };
  } catch (error) {
    return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
  } finally {
    store?.close();
  }
}
