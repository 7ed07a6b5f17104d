import { createHash } from 'node:crypto';
import { DATA_SCRIPT_TYPE, encodeData } from './embedded-data.js';
import { PAGE_SCRIPT, PAGE_STYLE } from './generated/page-assets.js';

export type HtmlDocumentInput = {
  title: string;
  /** Detail chunks, each already encoded by `encodeData` (so a caller can compress them one by one), loaded by the page when needed. */
  encodedChunks?: Iterable<string>;
} & (
  | {
      /** The page's data (JSON text). */
      data: string;
    }
  | {
      /** The page's data already encoded (as `encodeData` does its JSON text), asked for once the chunks are written. */
      encodedData: () => string;
    }
);

/**
 * One self-contained HTML file: the page's style and script inline, its data in inert script
 * elements, and a Content-Security-Policy that lets the page load nothing from anywhere
 * (`default-src 'none'`): only the inline script and style, by their hashes, run. So the file
 * works from `file://` or a CI artifact, and a report's text can never pull in a resource or
 * run as script.
 */
export function htmlDocument(input: HtmlDocumentInput): string {
  return [...htmlDocumentParts(input)].join('\n');
}

/**
 * {@link htmlDocument}'s text in pieces, to be joined with newlines: a writer hands them to the
 * file one by one instead of building one string of the whole page (for 10,000 conversations the
 * page and its chunks would otherwise be held twice while it is written).
 */
export function* htmlDocumentParts(input: HtmlDocumentInput): Generator<string> {
  const scriptHash = sha256(PAGE_SCRIPT);
  const styleHash = sha256(PAGE_STYLE);
  const csp = `default-src 'none'; script-src '${scriptHash}'; style-src '${styleHash}'; img-src data:; base-uri 'none'; form-action 'none'`;
  yield* [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="Parley">',
    `<title>${escapeHtml(input.title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<div id="app"><main><p>Loading the report…</p><noscript><p>This report needs JavaScript to show its data.</p></noscript></main></div>',
  ];
  // The chunks before the data: a writer can write each as it is made, and the list that says
  // where each case is comes once they all are (the page finds both by id).
  let index = 0;
  for (const chunk of input.encodedChunks ?? []) yield encodedDataScript(`parley-chunk-${index++}`, chunk);
  yield* [encodedDataScript('parley-data', 'encodedData' in input ? input.encodedData() : encodeData(input.data)), `<script>${PAGE_SCRIPT}</script>`, '</body>', '</html>', ''];
}

function encodedDataScript(id: string, encoded: string): string {
  return `<script type="${DATA_SCRIPT_TYPE}" id="${id}">${encoded}</script>`;
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
