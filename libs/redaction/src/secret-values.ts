/** Variables whose values are credentials however they are named: `OPENAI_API_KEY`, `LANGFUSE_SECRET_KEY`, `GITHUB_TOKEN`. */
const SECRET_VARIABLE = /(?:^|_)(?:API_?KEY|KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?|AUTH|AUTHORIZATION|PRIVATE_KEY)(?:_|$)/i;

/** Shorter values are too likely to occur in ordinary text (`true`, `1`, a port number) to be masked everywhere. */
const MIN_SECRET_LENGTH = 8;

/**
 * The values of the environment that are secrets: the variables named in `extraNames` (an agent's
 * `api_key_env`) and every variable whose name says it holds a key, token, secret or password.
 * The redactor masks these literally wherever they appear, whatever their format.
 */
export function secretValues(env: NodeJS.ProcessEnv, extraNames: readonly string[] = []): string[] {
  const names = new Set(extraNames);
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
    if (names.has(name) || SECRET_VARIABLE.test(name)) values.add(value);
  }
  return [...values];
}

/** Header names that carry credentials (`Authorization`, `X-Api-Key`, `Cookie`). */
const SECRET_HEADER = /auth|key|token|secret|password|cookie/i;

/**
 * Literal credentials written into agent headers of parley.yaml (`Authorization: Bearer abc…`);
 * values that reference the environment (`${TOKEN}`) are covered by {@link secretValues}.
 */
export function secretHeaderValues(headers: Record<string, string> | undefined): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!SECRET_HEADER.test(name) || value.includes('${')) continue;
    const token = value.replace(/^(?:Bearer|Basic|Token)\s+/i, '');
    for (const candidate of [value, token]) if (candidate.length >= MIN_SECRET_LENGTH) values.push(candidate);
  }
  return values;
}
