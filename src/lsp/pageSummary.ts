/**
 * The one-line summary of a page of results, shared by every paged tool (plain Node), with the
 * per-file counts and the groups folded into counts that it speaks of.
 */

/** A per-file count: `path` as the answer shows it (see `placeUri`). */
export interface FileCount {
  readonly path: string;
  readonly count: number;
}

/** Locations folded into a count instead of listed (references under `node_modules` or outside the workspace). */
export interface CollapsedGroup {
  readonly count: number;
  readonly files: readonly FileCount[];
}

/** The shaped answer of a locations operation (see {@link shapeLocations}). */

/**
 * The one-line summary of a page, shared by every paged tool: `"showing 1–50 of 150 in 3 files;
 * next page: offset 50"`, `"no results"`, or an `offset` past the end; folded counts appended
 * (`"; 4 in node_modules not listed (counted in collapsed)"`).
 */
export function summarize(
  total: number,
  offset: number,
  shown: number,
  fileCount: number,
  collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup },
  nextOffset: number | undefined,
): string {
  const folded = [
    collapsed.nodeModules ? `${collapsed.nodeModules.count} in node_modules` : '',
    collapsed.external ? `${collapsed.external.count} outside the workspace` : '',
  ].filter(Boolean);
  const tail = folded.length > 0 ? `; ${folded.join(' and ')} not listed (counted in collapsed)` : '';
  if (total === 0) return `no results${tail}`;
  if (shown === 0) return `offset ${offset} is past the end: there are ${total} results (use offset 0..${total - 1})${tail}`;
  const files = `${fileCount} file${fileCount === 1 ? '' : 's'}`;
  const more = nextOffset !== undefined ? `; next page: offset ${nextOffset}` : '';
  return `showing ${offset + 1}–${offset + shown} of ${total} in ${files}${more}${tail}`;
}

/** Most names a message lists inline (see {@link someNames}). */
export const MAX_NAMED = 5;

/**
 * The first `max` of `names` joined by `', '`, then `' and N more'` for the rest:
 * `"a, b, c, d, e and 3 more"`; all of them when there are at most `max`.
 * @param max how many to name, >= 1 (default {@link MAX_NAMED}).
 */
export function someNames(names: readonly string[], max = MAX_NAMED): string {
  const more = names.length - max;
  return more > 0 ? `${names.slice(0, max).join(', ')} and ${more} more` : names.join(', ');
}
