import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';

/** One way a value breaks a schema: the JSON pointer of the offending part and what is wrong. */
export interface SchemaViolation {
  path: string;
  message: string;
}

export type SchemaValidator = (value: unknown) => SchemaViolation[];

const AJV_OPTIONS: Options = {
  allErrors: true,
  // Unknown keywords (a typo such as `requried`) would make a check silently vacuous: refuse them.
  strictSchema: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  // `format` needs ajv-formats, which Parley does not ship; formats are not checked.
  validateFormats: false,
  logger: false,
};

type AjvConstructor = new (options: Options) => Ajv;
let ajvConstructor: AjvConstructor | undefined;
const validators = new Map<string, ValidateFunction>();

/**
 * A validator for `schema`, or the reason the schema does not compile. Ajv is loaded on first use
 * (it costs tens of milliseconds, and most suites never validate JSON), and each distinct schema
 * is compiled once per process, by a fresh Ajv so two schemas sharing an `$id` never clash.
 */
export function compileJsonSchema(schema: Record<string, unknown>): { validate: SchemaValidator } | { error: string } {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    try {
      const AjvClass = loadAjv();
      validate = new AjvClass(AJV_OPTIONS).compile(schema);
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
    validators.set(key, validate);
  }
  const compiled = validate;
  return {
    validate: (value) =>
      compiled(value) ? [] : (compiled.errors ?? []).map((error) => ({ path: error.instancePath || '/', message: error.message ?? error.keyword })),
  };
}

function loadAjv(): AjvConstructor {
  if (ajvConstructor === undefined) {
    const loaded: unknown = createRequire(import.meta.url)('ajv');
    if (typeof loaded !== 'function') throw new Error('the ajv package did not load as a constructor');
    ajvConstructor = loaded as AjvConstructor;
  }
  return ajvConstructor;
}
