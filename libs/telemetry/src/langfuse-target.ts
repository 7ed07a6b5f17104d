import { ConfigError } from '@parley/core';

/** A self-hosted Langfuse and its project keys (HTTP Basic auth: public key, secret key). */
export interface LangfuseTarget {
  baseUrl: string;
  publicKey: string;
  secretKey: string;
}

/**
 * Langfuse from its own variables: `LANGFUSE_HOST` (or `LANGFUSE_BASE_URL`, which newer SDKs
 * read), `LANGFUSE_PUBLIC_KEY`, `LANGFUSE_SECRET_KEY`. A missing one is a ConfigError naming it.
 */
export function langfuseFromEnv(env: NodeJS.ProcessEnv, host?: string): LangfuseTarget {
  const baseUrl = host ?? env.LANGFUSE_HOST ?? env.LANGFUSE_BASE_URL;
  const missing = [
    baseUrl ? undefined : 'LANGFUSE_HOST',
    env.LANGFUSE_PUBLIC_KEY ? undefined : 'LANGFUSE_PUBLIC_KEY',
    env.LANGFUSE_SECRET_KEY ? undefined : 'LANGFUSE_SECRET_KEY',
  ].filter((name): name is string => name !== undefined);
  if (missing.length > 0) throw new ConfigError(`exporting to Langfuse needs ${missing.join(', ')} in the environment`);
  return { baseUrl: baseUrl!.replace(/\/+$/, ''), publicKey: env.LANGFUSE_PUBLIC_KEY!, secretKey: env.LANGFUSE_SECRET_KEY! };
}

export function langfuseAuthorization(target: LangfuseTarget): string {
  return `Basic ${Buffer.from(`${target.publicKey}:${target.secretKey}`).toString('base64')}`;
}

/** The base URL as messages show it: without any credentials written into it. */
export function shownLangfuse(target: LangfuseTarget): string {
  return `Langfuse at ${target.baseUrl.replace(/\/\/[^/@]*@/, '//')}`;
}

export const LANGFUSE_KEYS_HINT = 'check LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY (a project\'s keys, from its settings page)';
