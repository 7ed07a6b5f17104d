import { gunzipSync, gzipSync } from 'node:zlib';
import { reusedUtf8 } from '@parley/core';

/**
 * How a page carries its data: JSON, gzip-compressed and base64-encoded, in inert
 * `<script type="application/x-parley-data">` elements that the page decompresses with the
 * browser's own `DecompressionStream`. A report of 10,000 conversations is some 180 MB of JSON;
 * compressed in chunks it fits the size a CI artifact and a browser handle, and the page only
 * decompresses the list up front and a case's chunk when the case is opened.
 */
export const DATA_SCRIPT_TYPE = 'application/x-parley-data';

/** Raw JSON per detail chunk: small enough to decompress at once when a case opens, large enough to compress well. */
const CHUNK_BYTES = 512 * 1024;

/** gzip level 6 (zlib's default): level 9 took twice as long for 1–2 % less on a 10,000-case report. */
const GZIP_LEVEL = 6;

export function encodeData(json: string): string {
  return compressPieces([json]).toString('base64');
}

/**
 * A chunk's items as one JSON array (`[a,b,…]`), compressed as {@link encodeData} would its
 * text, but without ever making that text (see {@link compressPieces}). 10,000 conversations are
 * some 50 MB of chunk text; a string and a buffer per chunk were garbage the heap grew by while
 * the page was built.
 */
export function compressJsonArray(items: readonly string[]): Buffer {
  return compressPieces(commaSeparatedPieces(items, '[', ']'));
}

/**
 * `before`, the items separated by commas, then `after`, as pieces to write or compress one after
 * the other (`['[', a, ',', b, ']']`) instead of one joined text.
 */
export function commaSeparatedPieces(items: readonly string[], before: string, after: string): string[] {
  const pieces = [before];
  for (let index = 0; index < items.length; index += 1) {
    if (index > 0) pieces.push(',');
    pieces.push(items[index]!);
  }
  pieces.push(after);
  return pieces;
}

/**
 * The text the pieces make one after the other, gzip-compressed, without making that text: the
 * pieces are encoded into the buffer `reusedUtf8` keeps from call to call.
 */
export function compressPieces(pieces: readonly string[]): Buffer {
  return gzipSync(reusedUtf8(pieces), { level: GZIP_LEVEL });
}

/** A chunk's items as its JSON array text. */
export function jsonArrayText(items: readonly string[]): string {
  return `[${items.join(',')}]`;
}

function decodeData(encoded: string): string {
  return gunzipSync(Buffer.from(encoded, 'base64')).toString('utf8');
}

/**
 * Groups items, already as JSON, into chunks of about {@link CHUNK_BYTES} each, in order, handing
 * each chunk's items to `sink` as soon as it is complete (so a caller that compresses it there
 * never holds every chunk's raw text at once; {@link jsonArrayText} makes its JSON array text);
 * `add` returns the item's chunk and place in it.
 */
export function jsonChunker<T>(sink: (items: readonly string[]) => T, chunkBytes: number = CHUNK_BYTES): { add(item: string): { chunk: number; slot: number }; finish(): T[] } {
  const chunks: T[] = [];
  let current: string[] = [];
  let size = 0;
  const close = () => {
    chunks.push(sink(current));
    current = [];
    size = 0;
  };
  return {
    add(item) {
      if (current.length > 0 && size + item.length > chunkBytes) close();
      const place = { chunk: chunks.length, slot: current.length };
      current.push(item);
      size += item.length + 1;
      return place;
    },
    finish() {
      if (current.length > 0) close();
      return chunks;
    },
  };
}

/**
 * Groups items, already as JSON, into chunks of about {@link CHUNK_BYTES} each, in order; returns
 * each chunk's JSON array text and, per item, its chunk and place in it.
 */
export function chunkJson(items: readonly string[], chunkBytes: number = CHUNK_BYTES): { chunks: string[]; places: Array<{ chunk: number; slot: number }> } {
  const chunker = jsonChunker(jsonArrayText, chunkBytes);
  const places = items.map((item) => chunker.add(item));
  return { chunks: chunker.finish(), places };
}

/** The data a page file carries, decoded: its main data and its chunks (for tests and tools that read a page). */
export function readEmbeddedData(html: string): { data: unknown; chunks: unknown[] } {
  const pattern = new RegExp(`<script type="${DATA_SCRIPT_TYPE.replace(/[+.]/g, '\\$&')}" id="([a-z0-9-]+)">([A-Za-z0-9+/=]*)</script>`, 'g');
  let data: unknown;
  const chunks: unknown[] = [];
  for (const match of html.matchAll(pattern)) {
    const value: unknown = JSON.parse(decodeData(match[2]!));
    if (match[1] === 'parley-data') data = value;
    else chunks[Number(match[1]!.replace('parley-chunk-', ''))] = value;
  }
  if (data === undefined) throw new Error('no Parley page data in this HTML');
  return { data, chunks };
}
