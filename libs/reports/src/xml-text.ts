/**
 * Escapes text for an XML attribute value or element content. Characters XML 1.0 cannot carry at
 * all (control characters other than tab, newline and carriage return, lone surrogates) become
 * U+FFFD, so an agent that emits raw bytes cannot make the JUnit file unreadable.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** `<name a="1" b="2">` with escaped attribute values; attributes whose value is null are left out. */
export function openTag(name: string, attributes: Record<string, string | number | null>, selfClosing = false): string {
  const rendered = Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== null)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  return `<${name}${rendered}${selfClosing ? '/>' : '>'}`;
}

/** An element holding only text. */
export function textElement(name: string, attributes: Record<string, string | number | null>, text: string): string {
  return `${openTag(name, attributes)}${escapeXml(text)}</${name}>`;
}
