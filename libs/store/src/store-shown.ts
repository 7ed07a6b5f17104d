import { parseDatabaseUrl } from './sql/database-url.js';
import { storeUrlFor } from './store-location.js';

// Its own module: store-location.ts is loaded with every suite (`parley validate` too) and must not
// bring the URL parser of the drivers along (apps/cli/src/cli-process.test.ts holds that).

/**
 * How messages name the store at `path`: a team store by its URL with the password as `***`,
 * otherwise the file itself (`shown`, when given, is how to print that path).
 */
export function storeShownFor(path: string, shown: string = path, env: NodeJS.ProcessEnv = process.env): string {
  const url = storeUrlFor(path, env);
  return url === undefined ? shown : `the team store ${parseDatabaseUrl(url).shown}`;
}
