/**
 * Text from reasons and transcripts is untrusted for markdown: a `|` splits a table cell, a
 * newline ends a table row, and `<name>` (the redactor's placeholder) would be taken for an HTML
 * tag and disappear. These make such text render as written.
 */

/** For a GitHub-flavoured markdown table cell. */
export function escapeTableCell(text: string): string {
  return escapeInline(text)
    .replace(/\r\n|\r|\n/g, '<br>')
    .replaceAll('|', '\\|');
}

/** For running text on one line (list items, headings): newlines become spaces. */
export function escapeInlineText(text: string): string {
  return escapeInline(text).replace(/\s*(?:\r\n|\r|\n)\s*/g, ' ');
}

function escapeInline(text: string): string {
  // Backslashes first, so that the escapes added afterwards are not themselves escaped.
  return text.replaceAll('\\', '\\\\').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}
