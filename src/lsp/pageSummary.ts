/**
 * The one place a page of results is shaped, shared by every paged tool (plain Node): the page,
 * `total` and `nextOffset`, the one-line summary, the per-file counts and the groups folded into
 * counts that it speaks of, each list of files bounded with the files left out counted and a note
 * saying how to see them ({@link shapePage}).
 */
import { checkInteger } from '../common/integerInput';
import { CUT_MARKER, textHead } from '../common/textHead';
import { formatBytes } from '../common/toolResultCap';

/** A per-file count: `path` as the answer shows it (see `placeUri`). */
export interface FileCount {
  readonly path: string;
  readonly count: number;
}

/** Locations folded into a count instead of listed (references under `node_modules` or outside the workspace). */
export interface CollapsedGroup {
  readonly count: number;
  /** Per-file counts, at most {@link MAX_LISTED_FILES} files and {@link MAX_LISTED_FILES_BYTES} of JSON. */
  readonly files: readonly FileCount[];
  /** Files of the group left out of {@link files} by the bound (their locations are in `count`). */
  readonly moreFiles?: number;
}

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

/** Most files a per-file list of an answer shows (`files`, a collapsed group's `files`). */
export const MAX_LISTED_FILES = 100;
/** Most bytes of JSON a per-file list of an answer takes (`[`, entries, commas and `]`, UTF-8). */
export const MAX_LISTED_FILES_BYTES = 32 * 1024;

/**
 * The longest prefix of `items` within both bounds: at most `maxItems` entries, and at most
 * `maxBytes` of the list's JSON in UTF-8 (`[`, entries, commas and `]`); `more` counts the entries
 * left out. The list never exceeds `maxBytes`: an entry that does not fit ends the list, even the
 * first one (then `listed` is empty and `more` counts every entry), so a caller whose entries may
 * each be large (a name from a source) cuts them first (see {@link capNames}).
 */
export function capList<T>(items: readonly T[], maxItems: number, maxBytes: number): { listed: T[]; more: number } {
  const listed: T[] = [];
  let bytes = 2; // [ and ]
  for (const item of items) {
    if (listed.length >= maxItems) break;
    const size = Buffer.byteLength(JSON.stringify(item)) + (listed.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) break;
    listed.push(item);
    bytes += size;
  }
  return { listed, more: items.length - listed.length };
}

/** A list of names bounded by {@link capNames}. */
export interface CappedNames {
  /** The first names that fit, each at most `maxUnits` UTF-16 code units plus {@link CUT_MARKER} where cut. */
  readonly listed: string[];
  /** Names left out of `listed` by the bounds. */
  readonly more: number;
  /** True when at least one listed name was cut (it ends in {@link CUT_MARKER}). */
  readonly cut: boolean;
}

/**
 * Names from a source (any number, any length) as a bounded list: each of the first `maxNames`
 * cut to `maxUnits` UTF-16 code units (a surrogate pair never split, {@link CUT_MARKER} appended),
 * then {@link capList} to `maxNames` entries and `maxBytes` of JSON; the rest counted in `more`.
 * Looks only at the names it may list, whatever `names.length` is.
 * @param maxNames most names listed, >= 0.
 * @param maxUnits most UTF-16 code units kept of a name, >= 1.
 * @param maxBytes most bytes of the listed names' JSON (UTF-8, brackets and commas included).
 */
export function capNames(names: readonly string[], maxNames: number, maxUnits: number, maxBytes: number): CappedNames {
  const head = names.slice(0, maxNames).map((n) => textHead(n, maxUnits));
  const { listed } = capList(head, maxNames, maxBytes);
  return { listed, more: names.length - listed.length, cut: listed.some((n, i) => n !== names[i]) };
}

/**
 * A paged answer within `maxBytes` of JSON (UTF-8): built with `limit` entries, then, while it is
 * larger, built again with half as many (its `nextOffset` then leads on), `capNote` saying so and
 * naming the bound (`formatBytes(maxBytes)`); the note is counted in the size. An answer whose
 * one entry alone is larger is returned as it is: its entries' fields are bounded where they are
 * shaped.
 * @param limit the entries asked for, an integer >= 1.
 * @param build the whole answer (every field the caller returns) for a page of `limit` entries.
 */
export async function fitPage<T extends { readonly nextOffset?: number }>(
  limit: number,
  maxBytes: number,
  build: (limit: number) => Promise<T>,
): Promise<T & { capNote?: string }> {
  const noted = (answer: T, used: number): T & { capNote?: string } =>
    used < limit
      ? {
          ...answer,
          capNote: `the page was cut to ${used} entries to stay within the ${formatBytes(maxBytes)} tool result cap; continue with offset ${answer.nextOffset ?? 'none'}`,
        }
      : answer;
  let used = limit;
  let answer = noted(await build(used), used);
  while (Buffer.byteLength(JSON.stringify(answer)) > maxBytes && used > 1) {
    used = Math.max(1, Math.floor(used / 2));
    answer = noted(await build(used), used);
  }
  return answer;
}

/** Groups folded into counts (see {@link CollapsedGroup}), by where they lie. */
export interface Collapsed {
  readonly nodeModules?: CollapsedGroup;
  readonly external?: CollapsedGroup;
}

/** The paging fields of every paged answer, as {@link shapePage} makes them. */
export interface CappedPage<F extends FileCount = FileCount> {
  /** Listable entries in all pages (folded ones not included). */
  readonly total: number;
  /** Entries on this page (`<= limit`). */
  readonly shown: number;
  /** 0-based index of the page's first entry among `total`. */
  readonly offset: number;
  /** The `offset` of the next page, when there is one. */
  readonly nextOffset?: number;
  /** One line: see {@link summarize}. */
  readonly summary: string;
  /** Per-file counts of all `total` entries in listing order, bounded ({@link MAX_LISTED_FILES}, {@link MAX_LISTED_FILES_BYTES}). */
  readonly files?: readonly F[];
  /** Files left out of `files` by the bound (their entries are still in `total` and on the pages). */
  readonly moreFiles?: number;
  /** Present when a list of files was cut: how many are listed, and how to see the others. */
  readonly filesNote?: string;
  readonly collapsed?: Collapsed;
}

/** Input of {@link shapePage}. */
export interface PageInput<T, F extends FileCount> {
  /** Every listable entry, in listing order (folded ones not included). */
  readonly listed: readonly T[];
  /** 0-based index of the first entry to show (an integer >= 0; past the end gives an empty page). */
  readonly offset: number;
  /** Most entries on the page (an integer >= 1). */
  readonly limit: number;
  /** Per-file counts of `listed`, in listing order; omit for an answer about one file (no `files` field). */
  readonly files?: readonly F[];
  /** How many files `listed` spans when `files` is omitted (default 1 when there are entries). */
  readonly fileCount?: number;
  /** Groups folded into counts, their `files` not yet bounded. */
  readonly collapsed?: Collapsed;
  /** How to see the results of files left out of a list, e.g. `"page with offset, or pass filePath for one file"`. */
  readonly seeMore: string;
}

/**
 * Checks a page request: `offset` (0-based, entries skipped) and `limit` (entries asked for).
 * @throws RangeError for an `offset` that is not an integer >= 0 or a `limit` that is not an integer >= 1.
 */
export function checkPage(offset: number, limit: number): void {
  checkInteger(offset, 'offset', { min: 0 }, (m) => new RangeError(m));
  checkInteger(limit, 'limit', { min: 1 }, (m) => new RangeError(m));
}

/**
 * One capped page, the shape every paged tool answers with: the page's entries (`page`, for the
 * caller to render) and the paging fields ({@link CappedPage}): `total`, `shown`, `offset`,
 * `nextOffset`, the summary line, the per-file list and each collapsed group's list bounded to
 * {@link MAX_LISTED_FILES} files and {@link MAX_LISTED_FILES_BYTES}, the files left out counted in
 * `moreFiles` and a `filesNote` saying how to see them.
 * @throws RangeError for an `offset` that is not an integer >= 0 or a `limit` that is not an integer >= 1.
 */
export function shapePage<T, F extends FileCount>(input: PageInput<T, F>): { page: T[]; paging: CappedPage<F> } {
  const { listed, offset, limit } = input;
  checkPage(offset, limit);
  const page = listed.slice(offset, offset + limit);
  const nextOffset = offset + page.length < listed.length ? offset + page.length : undefined;
  const notes: string[] = [];
  const fileCount = input.files?.length ?? input.fileCount ?? (listed.length > 0 ? 1 : 0);
  let files: F[] | undefined;
  let moreFiles = 0;
  if (input.files) {
    const capped = capList(input.files, MAX_LISTED_FILES, MAX_LISTED_FILES_BYTES);
    files = capped.listed;
    moreFiles = capped.more;
    if (moreFiles > 0)
      notes.push(
        `files lists ${files.length} of ${input.files.length} files (${moreFiles} more not listed, counted in moreFiles); their results are in total and on the pages: ${input.seeMore}`,
      );
  }
  const collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } = {};
  for (const where of ['nodeModules', 'external'] as const) {
    const group = input.collapsed?.[where];
    if (!group) continue;
    const capped = capList(group.files, MAX_LISTED_FILES, MAX_LISTED_FILES_BYTES);
    collapsed[where] = { count: group.count, files: capped.listed, ...(capped.more > 0 ? { moreFiles: capped.more } : {}) };
    if (capped.more > 0)
      notes.push(
        `collapsed.${where}.files lists ${capped.listed.length} of ${group.files.length} files (${capped.more} more, counted in its moreFiles)`,
      );
  }
  const paging: CappedPage<F> = {
    total: listed.length,
    shown: page.length,
    offset,
    ...(nextOffset !== undefined ? { nextOffset } : {}),
    summary: summarize(listed.length, offset, page.length, fileCount, collapsed, nextOffset),
    ...(files ? { files } : {}),
    ...(moreFiles > 0 ? { moreFiles } : {}),
    ...(notes.length > 0 ? { filesNote: notes.join('; ') } : {}),
    ...(Object.keys(collapsed).length > 0 ? { collapsed } : {}),
  };
  return { page, paging };
}
