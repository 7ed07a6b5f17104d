/**
 * Whether a row matches what was typed after `/`: every word must match (case ignored). A word
 * `name:value` matches when the row's field `name` contains `value` (`status:fail`,
 * `suite:booking`); any other word when some field contains it (an id, or part of one).
 */
export function matchesQuery(fields: Readonly<Record<string, string | undefined>>, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((word) => word !== '');
  const values = Object.values(fields).map((value) => (value ?? '').toLowerCase());
  return words.every((word) => {
    const colon = word.indexOf(':');
    if (colon > 0) {
      const name = word.slice(0, colon);
      const wanted = word.slice(colon + 1);
      const field = Object.entries(fields).find(([key]) => key.toLowerCase() === name);
      if (field) return (field[1] ?? '').toLowerCase().includes(wanted);
    }
    return values.some((value) => value.includes(word));
  });
}
