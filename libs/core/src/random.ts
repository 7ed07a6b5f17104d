import { randomBytes, randomInt } from 'node:crypto';

/** A seeded source of randomness (mulberry32): same seed, same sequence, on every platform. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** `length` lowercase hex characters. */
  hex(length: number): string;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    hex(length: number) {
      let out = '';
      while (out.length < length) out += Math.floor(next() * 16).toString(16);
      return out;
    },
  };
}

/** Randomness from the platform's CSPRNG, for run ids and tenants in real runs. */
export function systemRandom(): Random {
  return {
    next: () => randomInt(0, 2 ** 47) / 2 ** 47,
    hex: (length: number) => randomBytes(Math.ceil(length / 2)).toString('hex').slice(0, length),
  };
}
