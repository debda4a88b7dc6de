// Deterministic pseudo-random numbers for generated test inputs and benchmark data: the same seed
// gives the same sequence on every run, so a failing input can be replayed from its seed.

/** mulberry32: a generator of numbers in [0, 1) from a 32-bit `seed`. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole numbers in [0, n) from {@link seededRandom}'s sequence for `seed`. */
export function seededInt(seed: number): (n: number) => number {
  const next = seededRandom(seed);
  return (n) => Math.floor(next() * n);
}
