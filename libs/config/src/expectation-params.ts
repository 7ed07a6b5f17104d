import type { ConfigIssue } from '@parley/core';
import * as z from 'zod';
import type { ParsedConfigFile } from './config-file.js';
import { didYouMean } from './did-you-mean.js';
import { COMMON_EXPECTATION_KEYS, type Expectation } from './expectation-schema.js';
import type { DataPath } from './yaml-source.js';
import { describeZodIssues, validate } from './zod-issues.js';

const COMMON_KEYS: ReadonlySet<string> = new Set(COMMON_EXPECTATION_KEYS);

/** Parameters of a custom rubric metric: none besides the common keys. */
const RUBRIC_METRIC_PARAMS = z.strictObject({});

/** Parameters of a metric written in code: whatever it reads, under one `params:` mapping (given to it as `params`). */
const CODE_METRIC_PARAMS = z.strictObject({ params: z.record(z.string(), z.unknown()).optional() });

/**
 * The metrics an expectation may name, with the schema of each one's parameters. Built once per
 * suite; parameter schemas that are plain objects are made strict here, so a misspelt parameter
 * is reported instead of silently ignored.
 */
export class MetricCatalog {
  private readonly paramSchemas = new Map<string, z.ZodType>();

  constructor(builtInParams: Record<string, z.ZodType>, customMetricNames: Iterable<string>, codeMetricNames: Iterable<string> = []) {
    for (const [name, schema] of Object.entries(builtInParams)) this.paramSchemas.set(name, strictParameters(schema));
    for (const name of codeMetricNames) if (!this.paramSchemas.has(name)) this.paramSchemas.set(name, CODE_METRIC_PARAMS);
    for (const name of customMetricNames) if (!this.paramSchemas.has(name)) this.paramSchemas.set(name, RUBRIC_METRIC_PARAMS);
  }

  has(name: string): boolean {
    return this.paramSchemas.has(name);
  }

  names(): string[] {
    return [...this.paramSchemas.keys()];
  }

  paramsOf(name: string): z.ZodType | undefined {
    return this.paramSchemas.get(name);
  }
}

function strictParameters(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodObject && schema._zod.def.catchall === undefined ? schema.strict() : schema;
}

/**
 * Check expectations written at `basePath` of a file (validated by ExpectationSchema already):
 * every metric must be known, and the expectation's own parameters (without the common keys
 * metric/threshold/gate/thresholding) must satisfy that metric's schema. Issues point inside the file.
 */
export function checkExpectations(
  expectations: readonly Expectation[],
  basePath: DataPath,
  source: ParsedConfigFile<unknown>,
  catalog: MetricCatalog,
  /** Metrics that broader levels (suite defaults, the agent's) already expect: a narrower
   *  expectation of one of them with only common keys tunes those (see mergeExpectations). */
  tunable: ReadonlySet<string> = new Set(),
  /** Expectations (by index) checked elsewhere: parley.yaml's with `{{name}}` are checked once per variant, with its values in. */
  skip: (index: number) => boolean = () => false,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  expectations.forEach((expectation, index) => {
    if (skip(index)) return;
    const path = [...basePath, index];
    const paramsSchema = catalog.paramsOf(expectation.metric);
    if (paramsSchema === undefined) {
      issues.push(source.issueAt([...path, 'metric'], `unknown metric "${expectation.metric}"${didYouMean(expectation.metric, catalog.names())}`));
      return;
    }
    const params = withoutCommonKeys(expectation);
    if (Object.keys(params).length === 0 && tunable.has(expectation.metric)) return;
    const validation = validate(paramsSchema, params);
    if (validation.success) return;
    issues.push(
      ...describeZodIssues(validation.error.issues, {
        file: source.file,
        schema: paramsSchema,
        data: params,
        locate: source.locate,
        pathPrefix: path,
        extraKeys: COMMON_EXPECTATION_KEYS,
      }),
    );
  });
  return issues;
}

function withoutCommonKeys(expectation: Expectation): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(expectation)) if (!COMMON_KEYS.has(key)) params[key] = value;
  return params;
}
