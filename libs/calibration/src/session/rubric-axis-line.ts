/**
 * The line of the rubric where the section of `axis` starts (its heading: `## intent_comprehension: …`),
 * so the rubric can open at the axis being rated; 0 when the rubric has no such heading.
 */
export function rubricAxisLine(rubricText: string, axis: string): number {
  const lines = rubricText.split(/\r?\n/);
  const heading = lines.findIndex((line) => /^#{1,6}\s/.test(line) && new RegExp(`(^|[^a-z0-9_])${axis}([^a-z0-9_]|$)`).test(line.replace(/^#+\s*/, '')));
  return heading < 0 ? 0 : heading;
}
