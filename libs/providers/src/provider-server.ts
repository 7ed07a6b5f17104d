import type { ProviderKind } from '@parley/core';
import { providerConnection } from './live-provider.js';

/** The host and port a provider's calls go to (`server.address` / `server.port` of an export's spans). */
export interface ProviderServer {
  address: string;
  port: number;
}

/** Where the SDKs send when no base URL is given. */
const DEFAULT_BASE_URL: Record<ProviderKind, string | undefined> = {
  openai: 'https://api.openai.com/v1',
  'openai-responses': 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  'openai-compatible': undefined,
};

/**
 * The endpoint's host and port, resolved as the live provider resolves its base URL (the setting,
 * then `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`, then the SDK's default): only those two, never
 * credentials or a path. The port is the URL's, else its scheme's default. Undefined when there
 * is no usable URL.
 */
export function providerServer(kind: ProviderKind, baseUrl: string | undefined, env: NodeJS.ProcessEnv): ProviderServer | undefined {
  const url = providerConnection({ kind, ...(baseUrl !== undefined ? { baseUrl } : {}) }, env).baseURL ?? DEFAULT_BASE_URL[kind];
  if (url === undefined || url.trim() === '') return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const address = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = parsed.port !== '' ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : parsed.protocol === 'http:' ? 80 : undefined;
  if (address === '' || port === undefined) return undefined;
  return { address, port };
}
