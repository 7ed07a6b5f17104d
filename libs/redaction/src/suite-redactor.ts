import { isAbsolute, join } from 'node:path';
import type { RedactionConfig, RedactionPatternRule, SuiteFile } from '@parley/config';
import { composeRules, secretRules } from './floor-rules.js';
import { readIdentitiesFile } from './identities-file.js';
import { escapeRegExp } from './person-names.js';
import type { PatternRule } from './redaction-rule.js';
import { createRedactor, MASKED_FIELD_PLACEHOLDER, type Redactor } from './redactor.js';
import { secretHeaderValues, secretValues } from './secret-values.js';

/** The parts of a loaded suite the redactor needs (a `LoadedSuite` has them). */
export interface SuiteForRedaction {
  /** Absolute folder of parley.yaml: the identities file is relative to it. */
  dir: string;
  config: Pick<SuiteFile, 'redaction' | 'agents' | 'judge' | 'simulator'>;
}

export interface SuiteRedactorOptions {
  /** The environment whose credentials are masked wherever they appear (keys, tokens). */
  env?: NodeJS.ProcessEnv;
}

/**
 * The redactor of a suite: the floor, the suite's `redaction:` settings (identities, name fields,
 * keep literals, rules) and the extras of every restricted vertical, plus the environment's
 * secrets. Extras apply to all content, not only their vertical's: over-masking a spa transcript
 * costs little, under-masking a clinic's would not.
 */
export function suiteRedactor(suite: SuiteForRedaction, options: SuiteRedactorOptions = {}): Redactor {
  const redaction = suite.config.redaction;
  const names = redaction?.identities ? readIdentitiesFile(resolveInSuite(suite.dir, redaction.identities)) : [];
  return createRedactor({
    rules: composeRules({
      secretValues: [...secretValues(options.env ?? {}, apiKeyVariables(suite.config)), ...configuredHeaderSecrets(suite.config)],
      keep: redaction?.keep ?? [],
      suiteRules: suiteRules(redaction),
    }),
    names,
    ...(redaction?.name_fields ? { nameFields: redaction.name_fields } : {}),
    maskedFields: Object.values(redaction?.extras ?? {}).flatMap((extras) => extras.fields),
  });
}

/**
 * A redactor that masks only credentials (the environment's secrets, literal credential headers
 * and the secret patterns), leaving conversation content and tool arguments as they are: for the
 * run's own history in `.parley/parley.db`, which keeps transcripts for triage in the TUI but must
 * never hold a key.
 */
export function suiteSecretsRedactor(suite: SuiteForRedaction, options: SuiteRedactorOptions = {}): Redactor {
  return createRedactor({
    rules: secretRules([...secretValues(options.env ?? {}, apiKeyVariables(suite.config)), ...configuredHeaderSecrets(suite.config)]),
    nameFields: [],
    hashToolArguments: false,
  });
}

/** `redaction.rules` and every vertical's extras `rules` and `terms`, as pattern rules. */
function suiteRules(redaction: RedactionConfig | undefined): PatternRule[] {
  const fromConfig = (rule: RedactionPatternRule, prefix: string): PatternRule => ({
    kind: 'pattern',
    name: `${prefix}${rule.name}`,
    pattern: rule.pattern,
    ...(rule.flags !== undefined ? { flags: rule.flags } : {}),
    replacement: rule.replacement,
  });
  const rules = (redaction?.rules ?? []).map((rule) => fromConfig(rule, ''));
  for (const [vertical, extras] of Object.entries(redaction?.extras ?? {})) {
    rules.push(...extras.rules.map((rule) => fromConfig(rule, `${vertical}_`)));
    if (extras.terms.length > 0) {
      const terms = [...extras.terms].sort((left, right) => right.length - left.length).map((term) => term.split(/\s+/).map(escapeRegExp).join('\\s+'));
      rules.push({
        kind: 'pattern',
        name: `${vertical}_terms`,
        pattern: `(?<![\\p{L}\\p{M}\\p{N}_])(?:${terms.join('|')})(?![\\p{L}\\p{M}\\p{N}_])`,
        flags: 'iu',
        replacement: MASKED_FIELD_PLACEHOLDER,
      });
    }
  }
  return rules;
}

/** Environment variables the suite names as holding keys (`api_key_env`). */
function apiKeyVariables(config: SuiteForRedaction['config']): string[] {
  const names: string[] = [];
  for (const agent of Object.values(config.agents ?? {})) {
    if ('api_key_env' in agent && agent.api_key_env) names.push(agent.api_key_env);
  }
  for (const model of [config.judge?.primary, config.judge?.cross_check, config.simulator]) {
    if (model?.api_key_env) names.push(model.api_key_env);
  }
  return names;
}

function configuredHeaderSecrets(config: SuiteForRedaction['config']): string[] {
  return Object.values(config.agents ?? {}).flatMap((agent) => ('headers' in agent ? secretHeaderValues(agent.headers) : []));
}

function resolveInSuite(dir: string, path: string): string {
  return isAbsolute(path) ? path : join(dir, path);
}
