// The zod core classes by name, not through `z.core` (a namespace inside a namespace keeps every
// locale zod ships in the bundle: see docs/decisions.md, "Start-up").
import * as core from 'zod/v4/core';
import type { DataPath } from './yaml-source.js';

/**
 * The keys a schema allows at `path` of `data`, or undefined when the value there is not a
 * mapping with known keys. Used to suggest the key a user meant when zod reports an unknown one.
 * Follows objects, optional/default/nullable wrappers, pipes, lists, records and unions; a
 * discriminated union is followed into the option the data's discriminator selects.
 */
export function allowedKeysAt(schema: core.$ZodType, data: unknown, path: DataPath): string[] | undefined {
  let current: core.$ZodType | undefined = schema;
  let value = data;
  for (const segment of path) {
    current = childSchema(unwrap(current, value), segment, value);
    value = childValue(value, segment);
    if (current === undefined) return undefined;
  }
  return objectKeys(unwrap(current, value));
}

function childValue(value: unknown, segment: string | number): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  return Reflect.get(value, segment) as unknown;
}

/** Peel wrappers that do not change which keys are allowed; resolve unions by the data. */
function unwrap(schema: core.$ZodType, value: unknown): core.$ZodType {
  let current = schema;
  for (let depth = 0; depth < 32; depth++) {
    if (
      current instanceof core.$ZodOptional ||
      current instanceof core.$ZodNullable ||
      current instanceof core.$ZodDefault ||
      current instanceof core.$ZodPrefault ||
      current instanceof core.$ZodNonOptional ||
      current instanceof core.$ZodReadonly ||
      current instanceof core.$ZodCatch
    ) {
      current = current._zod.def.innerType;
    } else if (current instanceof core.$ZodPipe) {
      current = current._zod.def.in;
    } else if (current instanceof core.$ZodLazy) {
      current = current._zod.def.getter();
    } else if (current instanceof core.$ZodDiscriminatedUnion) {
      const option = discriminatedOption(current, value);
      if (option === undefined) return current;
      current = option;
    } else {
      return current;
    }
  }
  return current;
}

function discriminatedOption(union: core.$ZodDiscriminatedUnion, value: unknown): core.$ZodType | undefined {
  const discriminator = union._zod.def.discriminator;
  const selected = childValue(value, discriminator);
  return union._zod.def.options.find((option) => {
    const values = option._zod.propValues?.[discriminator];
    return values !== undefined && [...values].some((allowed) => allowed === selected);
  });
}

function childSchema(schema: core.$ZodType, segment: string | number, value: unknown): core.$ZodType | undefined {
  if (schema instanceof core.$ZodObject) {
    const shape = schema._zod.def.shape;
    return Object.hasOwn(shape, segment) ? shape[segment] : schema._zod.def.catchall;
  }
  if (schema instanceof core.$ZodArray) return schema._zod.def.element;
  if (schema instanceof core.$ZodRecord) return schema._zod.def.valueType;
  if (schema instanceof core.$ZodTuple) {
    return typeof segment === 'number' ? (schema._zod.def.items[segment] ?? schema._zod.def.rest ?? undefined) : undefined;
  }
  if (schema instanceof core.$ZodUnion) {
    // A plain union: follow the first option that knows this segment.
    for (const option of schema._zod.def.options) {
      const child = childSchema(unwrap(option, value), segment, value);
      if (child !== undefined) return child;
    }
  }
  return undefined;
}

function objectKeys(schema: core.$ZodType): string[] | undefined {
  if (schema instanceof core.$ZodObject) return Object.keys(schema._zod.def.shape);
  if (schema instanceof core.$ZodUnion) {
    const keys = new Set<string>();
    for (const option of schema._zod.def.options) for (const key of objectKeys(unwrap(option, undefined)) ?? []) keys.add(key);
    return keys.size > 0 ? [...keys] : undefined;
  }
  if (schema instanceof core.$ZodIntersection) {
    const keys = [...(objectKeys(schema._zod.def.left) ?? []), ...(objectKeys(schema._zod.def.right) ?? [])];
    return keys.length > 0 ? keys : undefined;
  }
  return undefined;
}
