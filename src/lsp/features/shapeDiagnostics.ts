/**
 * What the model sees of diagnostics (plain Node), as `dsh_diagnostics` shows them: filtered by
 * severity, duplicates removed, errors first, per-file and per-severity counts, messages bounded,
 * pages and folding as `./present.ts` shapes them.
 */
import { CappedPage, checkPage, shapePage } from '../pageSummary';
import { textHead } from '../../common/textHead';
import { PlacedPath, placeUri } from '../placeUri';
import { uriKey } from '../uri';
import { TimeSlice } from '../timeSlice';
import { slicedSort } from '../slicedSort';
import { cachedLines, foldSliced, ModelRange, NAME_MAX_UNITS, PresentOptions, toModelRange } from './present';
import type { DiagnosticItem, Severity } from './types';
import { SEVERITIES } from './types';

/** Most UTF-16 code units of a diagnostic's `message` as an answer shows it; then as {@link NAME_MAX_UNITS}. */
export const DIAGNOSTIC_MESSAGE_MAX_UNITS = 4000;

/** A diagnostic as the model sees it. */
export interface ShownDiagnostic extends ModelRange {
  readonly path: string;
  readonly severity: Severity;
  /** At most {@link DIAGNOSTIC_MESSAGE_MAX_UNITS} UTF-16 code units (then `…`, and `cut`). */
  readonly message: string;
  /** At most {@link NAME_MAX_UNITS} UTF-16 code units (then `…`, and `cut`); so is `code`. */
  readonly source?: string;
  readonly code?: string;
  /** `message`, `source` or `code` was longer than its bound and is cut (it ends in `…`). */
  readonly cut?: true;
}

/** Per-file counts of diagnostics: `count` and the number of each severity present. */
export interface DiagnosticFileCount {
  readonly path: string;
  readonly count: number;
  readonly error?: number;
  readonly warning?: number;
  readonly information?: number;
  readonly hint?: number;
}

/** A page of diagnostics, errors first. */
export interface ShapedDiagnostics extends CappedPage<DiagnosticFileCount> {
  /** Counts of the listed diagnostics by severity (every file, listed in `files` or not). */
  readonly counts: Readonly<Record<Severity, number>>;
  /** Per-file counts in listing order, bounded (the rest counted in `moreFiles`). */
  readonly files: readonly DiagnosticFileCount[];
  readonly diagnostics: readonly ShownDiagnostic[];
}

/**
 * Shape diagnostics: those less severe than `minSeverity` dropped, duplicates (same file, range,
 * severity, message) removed, sorted by severity (errors first), path, line and column (ties in
 * the given order), folded and paged; `counts` and `files` count every listed diagnostic. A
 * workspace's diagnostics may number hundreds of thousands (a linter on a big repository): every
 * pass over them yields every few ms and each file is placed once, then only the page is shown.
 * @throws RangeError for a bad `offset` / `limit` (the tool validates first); LspError `cancelled`
 *   when `options.signal` aborts (checked at each pause that yields).
 */
export async function shapeDiagnostics(
  items: readonly DiagnosticItem[],
  options: PresentOptions & { minSeverity?: Severity },
): Promise<ShapedDiagnostics> {
  checkPage(options.offset, options.limit);
  const slice = new TimeSlice();
  const signal = options.signal;
  const maxRank = SEVERITIES.indexOf(options.minSeverity ?? 'hint');
  const seen = new Set<string>();
  const files = new Map<string, { key: string; place: PlacedPath }>();
  const placed: Array<{ d: DiagnosticItem; place: PlacedPath; rank: number }> = [];
  for (const d of items) {
    await slice.pause(signal);
    const rank = SEVERITIES.indexOf(d.severity);
    if (rank > maxRank) continue;
    let file = files.get(d.uri);
    if (!file) files.set(d.uri, (file = { key: uriKey(d.uri), place: placeUri(options.roots, d.uri) }));
    const r = d.range;
    const k = `${file.key}#${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}#${d.severity}#${d.message}`;
    if (seen.has(k)) continue;
    seen.add(k);
    placed.push({ d, place: file.place, rank });
  }
  const sorted = await slicedSort(
    placed,
    (a, b) =>
      a.rank - b.rank ||
      (a.place.path < b.place.path ? -1 : a.place.path > b.place.path ? 1 : 0) ||
      a.d.range.start.line - b.d.range.start.line ||
      a.d.range.start.character - b.d.range.start.character,
    slice,
    signal,
  );
  const { listed, collapsed } = await foldSliced(sorted, slice, signal);
  const counts = { error: 0, warning: 0, information: 0, hint: 0 };
  const perFile = new Map<string, { path: string; count: number } & Partial<Record<Severity, number>>>();
  for (const { d, place } of listed) {
    await slice.pause(signal);
    counts[d.severity]++;
    const f = perFile.get(place.path) ?? { path: place.path, count: 0 };
    f.count++;
    f[d.severity] = (f[d.severity] ?? 0) + 1;
    perFile.set(place.path, f);
  }
  const { page, paging } = shapePage({
    listed,
    offset: options.offset,
    limit: options.limit,
    files: [...perFile.values()],
    collapsed,
    seeMore: "page with offset (errors first, then by path), or pass filePath for one file's problems",
  });
  const lines = cachedLines(options.readLines);
  const diagnostics = await Promise.all(
    page.map(async ({ d, place }): Promise<ShownDiagnostic> => {
      const message = textHead(d.message, DIAGNOSTIC_MESSAGE_MAX_UNITS);
      const source = d.source ? textHead(d.source, NAME_MAX_UNITS) : undefined;
      const code = d.code !== undefined ? textHead(d.code, NAME_MAX_UNITS) : undefined;
      const cut = message !== d.message || source !== (d.source || undefined) || code !== d.code;
      return {
        path: place.path,
        ...toModelRange(d.range, await lines(d.uri)),
        severity: d.severity,
        message,
        ...(source ? { source } : {}),
        ...(code !== undefined ? { code } : {}),
        ...(cut ? { cut: true as const } : {}),
      };
    }),
  );
  const bySeverity = SEVERITIES.filter((s) => counts[s] > 0).map(
    (s) => `${counts[s]} ${s}${counts[s] === 1 || s === 'information' ? '' : 's'}`,
  );
  const base = paging.summary;
  return {
    ...paging,
    summary: listed.length === 0 ? base.replace(/^no results/, 'no problems') : `${base} (${bySeverity.join(', ')})`,
    counts,
    files: paging.files ?? [],
    diagnostics,
  };
}
