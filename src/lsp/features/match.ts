/**
 * Matching a symbol name against a workspace-symbol query (plain Node), the way VS Code's "Go to
 * Symbol in Workspace" filters: case-insensitive, the query's characters in order in the name, not
 * necessarily adjacent (`gsym` matches `getSymbols`). Whitespace in the query is ignored, as in
 * the quick pick. Better matches rank first: exact, prefix, contiguous substring, word starts
 * (camelCase humps, after `_`, `-`, `.`, space), then any in-order match.
 */

/** Score of a match (higher is better), or `undefined` when `name` does not match `query`. */
export function matchSymbolName(query: string, name: string): number | undefined {
  const q = query.replace(/\s+/g, '').toLowerCase();
  if (q === '') return undefined;
  const lower = name.toLowerCase();
  if (lower === q) return 1000;
  if (lower.startsWith(q)) return 900 - Math.min(lower.length - q.length, 99);
  const at = lower.indexOf(q);
  if (at >= 0) return (isWordStart(name, at) ? 800 : 700) - Math.min(at, 99);
  // In order, not adjacent: it matches when the earliest-hit walk succeeds; a walk that takes word
  // starts where it can scores higher when it succeeds too.
  if (!inOrder(lower, q, () => false)) return undefined;
  let starts = 0;
  const preferStarts = inOrder(lower, q, (i) => isWordStart(name, i) && ++starts > 0);
  return 100 + (preferStarts ? Math.min(starts * 20, 500) : 0) - Math.min(lower.length, 99);
}

/**
 * Walk `q` through `lower` in order; at each step take the first word start (as `pick` says) before
 * falling back to the first hit. True when every character was found.
 */
function inOrder(lower: string, q: string, pick: (i: number) => boolean): boolean {
  let from = 0;
  for (const ch of q) {
    let i = lower.indexOf(ch, from);
    if (i < 0) return false;
    for (let k = i; k >= 0; k = lower.indexOf(ch, k + 1)) {
      if (pick(k)) {
        i = k;
        break;
      }
    }
    from = i + 1;
  }
  return true;
}

function isWordStart(name: string, i: number): boolean {
  if (i === 0) return true;
  const prev = name[i - 1]!;
  const c = name[i]!;
  if (/[_\-.\s/:#$]/.test(prev)) return true;
  return c !== c.toLowerCase() && prev === prev.toLowerCase();
}
