import { describe, expect, it } from 'vitest';
import { reusedUtf8 } from './reused-utf8.js';

describe('reusedUtf8', () => {
  it('gives the UTF-8 bytes of the pieces one after the other, multi-byte text included', () => {
    const pieces = ['Habari ', 'Ñandú 🙂 ', '', 'Sawubona'];
    expect(reusedUtf8(pieces).toString('utf8')).toBe(pieces.join(''));
    expect(reusedUtf8(['🙂'.repeat(1000)])).toEqual(Buffer.from('🙂'.repeat(1000), 'utf8'));
  });

  it('reuses one buffer for small texts, and gives a text over 2 MiB a buffer of its own', () => {
    const first = reusedUtf8(['a'.repeat(100)]);
    const second = reusedUtf8(['b'.repeat(100)]);
    // The same memory: the first bytes are only good until the next call.
    expect(first.buffer).toBe(second.buffer);
    expect(first.toString()).toBe('b'.repeat(100));
    const large = ['x'.repeat(1024 * 1024), 'é'.repeat(1024 * 1024)];
    const bytes = reusedUtf8(large);
    expect(bytes.length).toBe(3 * 1024 * 1024);
    expect(bytes.toString('utf8')).toBe(large.join(''));
    expect(bytes.buffer).not.toBe(reusedUtf8(['c']).buffer);
  });
});
