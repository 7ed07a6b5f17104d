/**
 * Fields of structured data (tool arguments and results, production log records) that hold a
 * person's name. A bare `name` is not among them: it names tools, services and products far more
 * often than people; `customer.name` (a `name` inside a `customer` object) is.
 */
export const DEFAULT_NAME_FIELDS: readonly string[] = [
  'customer_name', 'client_name', 'patient_name', 'caller_name', 'contact_name', 'person_name', 'full_name',
  'first_name', 'last_name', 'middle_name', 'given_name', 'family_name', 'surname', 'display_name',
  'customer.name', 'client.name', 'patient.name', 'caller.name', 'contact.name', 'user.name', 'person.name',
];

/** Decides whether a key (inside an object held under `parentKey`) is one of the configured fields. */
export type FieldMatcher = (key: string, parentKey: string | undefined) => boolean;

/**
 * `customerName`, `Customer-Name` and `customer_name` are one field: keys compare in snake case.
 *
 * @example normaliseKey('customerName') === 'customer_name'
 */
function normaliseKey(key: string): string {
  // Structured data repeats a handful of keys endlessly: remember their normal forms.
  let normal = normalKeys.get(key);
  if (normal === undefined) {
    normal = key
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[\s-]+/g, '_')
      .toLowerCase();
    if (normalKeys.size >= MAX_NORMAL_KEYS) normalKeys.clear();
    normalKeys.set(key, normal);
  }
  return normal;
}

const MAX_NORMAL_KEYS = 4_096;
const normalKeys = new Map<string, string>();

/** A matcher for field specs written `field` or `parent.field`. */
export function fieldMatcher(fields: readonly string[]): FieldMatcher {
  const plain = new Set<string>();
  const nested = new Set<string>();
  for (const field of fields) {
    const parts = field.split('.').map(normaliseKey);
    if (parts.length === 1) plain.add(parts[0]!);
    else nested.add(`${parts.at(-2)}.${parts.at(-1)}`);
  }
  if (plain.size === 0 && nested.size === 0) return () => false;
  return (key, parentKey) => {
    const normal = normaliseKey(key);
    if (plain.has(normal)) return true;
    return parentKey !== undefined && nested.has(`${normaliseKey(parentKey)}.${normal}`);
  };
}

/** Every string held by a matching field anywhere in `value` (a string, or a list of strings). */
export function namesInFields(value: unknown, isNameField: FieldMatcher): string[] {
  const names: string[] = [];
  const visit = (node: unknown, parentKey: string | undefined, depth: number): void => {
    if (depth > 64 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) visit(item, parentKey, depth + 1);
      return;
    }
    for (const [key, child] of Object.entries(node)) {
      if (isNameField(key, parentKey)) {
        if (typeof child === 'string') names.push(child);
        else if (Array.isArray(child)) names.push(...child.filter((item): item is string => typeof item === 'string'));
      }
      visit(child, key, depth + 1);
    }
  };
  visit(value, undefined, 0);
  return names;
}
