import type { CaseDetail, PageData } from '../src/page-data.js';

/** The `<script>` element ids and type the builder writes (see src/embedded-data.ts). */
const DATA_ID = 'parley-data';
const CHUNK_ID = 'parley-chunk-';

/** Decodes one data element: base64, then gzip through the browser's DecompressionStream, then JSON. */
async function decode(id: string): Promise<unknown> {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`the report has no ${id}: the file is incomplete`);
  const binary = atob(element.textContent ?? '');
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return JSON.parse(await new Response(stream).text());
}

export function readPageData(): Promise<PageData> {
  return decode(DATA_ID) as Promise<PageData>;
}

const chunks = new Map<number, Promise<CaseDetail[]>>();

/** A chunk of case details, decoded once and kept. */
export function readChunk(chunk: number): Promise<CaseDetail[]> {
  let found = chunks.get(chunk);
  if (found === undefined) {
    found = decode(`${CHUNK_ID}${chunk}`) as Promise<CaseDetail[]>;
    chunks.set(chunk, found);
  }
  return found;
}
