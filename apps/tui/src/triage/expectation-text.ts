/**
 * The `expect:` block of a scenario file as written (comments included), for triage of a
 * `metadata_only` scenario: what the scenario checks, without its conversation. Undefined when the
 * file has no top-level `expect:`.
 */
export function expectationText(fileText: string): string[] | undefined {
  const lines = fileText.split(/\r?\n/);
  const start = lines.findIndex((line) => /^expect\s*:/.test(line));
  if (start < 0) return undefined;
  const block = [lines[start]!];
  for (const line of lines.slice(start + 1)) {
    // The block ends at the next top-level key: a line starting with neither a space, `-` nor `#`.
    if (line !== '' && !/^[\s#-]/.test(line)) break;
    block.push(line);
  }
  while (block.length > 1 && block[block.length - 1]!.trim() === '') block.pop();
  return block;
}
