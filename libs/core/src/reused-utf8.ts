/** Texts whose UTF-8 fits this many bytes are encoded into the one reused buffer. */
const SCRATCH_BYTES = 2 * 1024 * 1024;
let scratch: Buffer = Buffer.alloc(0);

/**
 * The UTF-8 bytes of `pieces`, one after the other, for a caller that uses them at once (a
 * synchronous write, a gzipSync): the bytes are only good until the next call. Up to 2 MiB they
 * are encoded into one buffer kept from call to call: a run that writes ten thousand pieces of a
 * few kB (a report written result by result, report.html's chunks) with a fresh buffer each left
 * the allocator's freed blocks behind, which a long process does not give back to the system.
 */
export function reusedUtf8(pieces: readonly string[]): Buffer {
  // At most 3 bytes per UTF-16 unit; the exact count only when that bound does not fit already.
  const bound = pieces.reduce((total, piece) => total + 3 * piece.length, 0);
  const exact = bound <= scratch.length ? -1 : pieces.reduce((total, piece) => total + Buffer.byteLength(piece, 'utf8'), 0);
  // A larger text gets a buffer of its own, still without joining the pieces.
  if (exact > SCRATCH_BYTES) return writePieces(Buffer.allocUnsafe(exact), pieces);
  if (exact > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.min(SCRATCH_BYTES, Math.max(exact, 2 * scratch.length, 64 * 1024)));
  return writePieces(scratch, pieces);
}

function writePieces(bytes: Buffer, pieces: readonly string[]): Buffer {
  let end = 0;
  for (const piece of pieces) end += bytes.write(piece, end, 'utf8');
  return bytes.subarray(0, end);
}
