import { ConfigError } from '@parley/core';

/** A self-hosted Langfuse and its project keys (HTTP Basic auth: public key, secret key). */
export interface LangfuseTarget {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
  /** See langfuseClient: from PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS and PARLEY_LANGFUSE_TIMEOUT_MS. */
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
}

/**
 * Langfuse from its own variables: `LANGFUSE_HOST` (or `LANGFUSE_BASE_URL`, which newer SDKs
 * read), `LANGFUSE_PUBLIC_KEY`, `LANGFUSE_SECRET_KEY`, and the client's timeouts from
 * `PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS` and `PARLEY_LANGFUSE_TIMEOUT_MS`. A missing or bad one is a
 * ConfigError naming it. `purpose` says what needs them (`exporting to Langfuse`).
 */
export function langfuseFromEnv(env: NodeJS.ProcessEnv, host?: string, purpose = 'exporting to Langfuse'): LangfuseTarget {
  const baseUrl = host ?? env.LANGFUSE_HOST ?? env.LANGFUSE_BASE_URL;
  const missing = [
    baseUrl ? undefined : 'LANGFUSE_HOST',
    env.LANGFUSE_PUBLIC_KEY ? undefined : 'LANGFUSE_PUBLIC_KEY',
    env.LANGFUSE_SECRET_KEY ? undefined : 'LANGFUSE_SECRET_KEY',
  ].filter((name): name is string => name !== undefined);
  if (missing.length > 0) throw new ConfigError(`${purpose} needs ${missing.join(', ')} in the environment`);
  checkBaseUrl(baseUrl!, host !== undefined ? 'the Langfuse URL' : env.LANGFUSE_HOST !== undefined ? 'LANGFUSE_HOST' : 'LANGFUSE_BASE_URL');
  const connectTimeoutMs = milliseconds(env, 'PARLEY_LANGFUSE_CONNECT_TIMEOUT_MS');
  const totalTimeoutMs = milliseconds(env, 'PARLEY_LANGFUSE_TIMEOUT_MS');
  return {
    baseUrl: baseUrl!.replace(/\/+$/, ''),
    publicKey: env.LANGFUSE_PUBLIC_KEY!,
    secretKey: env.LANGFUSE_SECRET_KEY!,
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    ...(totalTimeoutMs !== undefined ? { totalTimeoutMs } : {}),
  };
}

/**
 * An http(s) URL without credentials: `fetch` refuses a URL with `user:password@` and its error
 * quotes the URL whole, password and all, so it is refused here without showing the value.
 */
function checkBaseUrl(baseUrl: string, source: string): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`${source} is not a URL: give Langfuse's base URL, such as https://langfuse.example.com`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${source} must be an http:// or https:// URL`);
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError(`${source} holds credentials (user:password@): remove them; Langfuse takes the project's keys from LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY`);
  }
}

function milliseconds(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name]?.trim();
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`${name} must be a positive whole number of milliseconds (got "${text}")`);
  return value;
}

export function langfuseAuthorization(target: LangfuseTarget): string {
  return `Basic ${Buffer.from(`${target.publicKey}:${target.secretKey}`).toString('base64')}`;
}

/** The base URL as messages show it: without any credentials written into it. */
export function shownLangfuse(target: LangfuseTarget): string {
  return `Langfuse at ${target.baseUrl.replace(/\/\/[^/@]*@/, '//')}`;
}

