/** The declared name a misspelt one was probably meant to be. Plain Node. */

/**
 * Optimal string alignment distance of `a` and `b` (insertions, deletions, substitutions and
 * swaps of neighbours, each 1), compared case-insensitively; stops early past `limit`.
 */
function distance(a: string, b: string, limit: number): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return limit + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

/**
 * The name among `names` closest to `given`: the same name in other case, a name that starts
 * with it (`timeout` → `timeoutMs`; the shortest such) or that it starts with (the longest), else one at most a third of its length
 * (at least 2) edits away; undefined when none is that close or `given` is over 64 characters.
 */
export function didYouMean(given: string, names: readonly string[]): string | undefined {
  if (given.length === 0 || given.length > 64) return undefined;
  const lower = given.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === lower);
  if (same) return same;
  if (lower.length >= 3) {
    // A name it begins (the shortest: `untilListenin` → `untilListening`), else a name it extends (the longest).
    const begun = names.filter((n) => n.toLowerCase().startsWith(lower)).sort((a, b) => a.length - b.length)[0];
    const extended = names.filter((n) => lower.startsWith(n.toLowerCase())).sort((a, b) => b.length - a.length)[0];
    if (begun ?? extended) return begun ?? extended;
  }
  const limit = Math.max(2, Math.floor(given.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const name of names) {
    const d = distance(given, name, limit);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}
