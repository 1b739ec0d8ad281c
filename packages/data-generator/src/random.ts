/**
 * A small seeded PRNG (mulberry32) with the helpers the generator needs. Math.random is never
 * used: the same seed must give the same rows on every machine.
 */
export interface Random {
  /** Uniform in [0, 1). A plain function (no `this`): the hot loops pass it on by itself. */
  next: () => number;
  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Index drawn by weight. */
  weighted(weights: readonly number[]): number;
  shuffle<T>(items: T[]): T[];
  /** A child generator: a new stream that does not shift this one's sequence by more than one draw. */
  fork(label: number): Random;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createRandom(seed: number): Random {
  const next = mulberry32(seed);
  const random: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted: (weights) => {
      let total = 0;
      for (const w of weights) total += w;
      let r = next() * total;
      for (let i = 0; i < weights.length; i++) {
        r -= weights[i]!;
        if (r < 0) return i;
      }
      return weights.length - 1;
    },
    shuffle: (items) => {
      for (let i = items.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [items[i], items[j]] = [items[j]!, items[i]!];
      }
      return items;
    },
    fork: (label) => createRandom((Math.floor(next() * 4294967296) ^ Math.imul(label + 1, 0x9e3779b1)) >>> 0),
  };
  return random;
}

/**
 * Cumulative weights for drawing many times from the same distribution in O(log n)
 * (goods popularity, hour of day).
 */
export function cumulative(weights: readonly number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let sum = 0;
  for (let i = 0; i < weights.length; i++) out[i] = sum += weights[i]!;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / sum;
  return out;
}

export function drawCumulative(cdf: Float64Array, r: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Walker's alias table: draws an index in proportion to its weight in O(1), for the hot
 * loops that draw goods millions of times.
 */
export interface AliasTable {
  draw(next: () => number): number;
}

export function aliasTable(weights: readonly number[]): AliasTable {
  const n = weights.length;
  const total = weights.reduce((a, b) => a + b, 0);
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  const scaled = weights.map((w) => (w * n) / total);
  const small: number[] = [];
  const large: number[] = [];
  scaled.forEach((p, i) => (p < 1 ? small : large).push(i));
  while (small.length > 0 && large.length > 0) {
    const s = small.pop()!;
    const l = large.pop()!;
    prob[s] = scaled[s]!;
    alias[s] = l;
    scaled[l] = scaled[l]! + scaled[s]! - 1;
    (scaled[l] < 1 ? small : large).push(l);
  }
  for (const i of [...small, ...large]) {
    prob[i] = 1;
    alias[i] = i;
  }
  return {
    draw: (next) => {
      const i = Math.floor(next() * n);
      return next() < prob[i]! ? i : alias[i]!;
    },
  };
}
