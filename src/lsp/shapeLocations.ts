/**
 * What the model sees of a locations answer (plain Node, no `vscode` import): the `dsh_lsp` tool's
 * result shaping — paths placed and decoded, workspace hits first, duplicates merged, references
 * outside the workspace folded into counts, paging — with a preview line per shown location.
 *
 * Coordinates: everything produced here for the model is 1-based (line, column counted in
 * characters, i.e. code points); everything consumed from the seam is LSP (0-based line, 0-based
 * UTF-16 character). The conversion uses `./position.ts` only.
 */

import { checkInteger } from '../common/integerInput';
import { textHead } from '../common/textHead';
import { LINE_TEXT_MAX_UNITS } from './lineWindow';
import { CappedPage, CollapsedGroup, FileCount, MAX_NAMED, shapePage } from './pageSummary';
import { PlacedPath, placeUri } from './placeUri';
import { characterToModelColumn } from './position';
import { preview } from './previewLine';
import { LspOperation, NavLocation } from './types';
import { uriKey } from './uri';

/** One location as the model sees it. Paths are decoded; `line`/`column` 1-based; `endColumn` is exclusive. */
export interface ShownLocation {
  /** Workspace-relative (`docs/My Notes #1/a.ts`), or the absolute path (or URI for non-file schemes) when outside the workspace. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** 1-based, exclusive: the range covers columns `column .. endColumn-1` when on one line. */
  readonly endColumn: number;
  /** The location's line, trimmed, at most {@link PREVIEW_MAX_CHARS} characters (`…` when cut); `''` when unreadable or withheld. */
  readonly preview: string;
  /**
   * Why the file was not read for {@link preview} (e.g. `'outside the workspace'`): its text is not
   * shown without the user's consent. Columns are then the UTF-16 offset + 1 (the line is unknown).
   */
  readonly previewWithheld?: string;
  readonly isDeclaration?: true;
  /** The location is outside every workspace folder (e.g. reached through a symbolic link). */
  readonly external?: true;
  /** The location is under a `node_modules` folder. */
  readonly nodeModules?: true;
  readonly ambiguous?: true;
  /** The matching targets (chosen first), as paths like {@link path}: at most {@link MAX_NAMED} of them. */
  readonly candidates?: readonly string[];
  /** Matching targets beyond {@link candidates}, not listed. */
  readonly moreCandidates?: number;
  readonly fuzzy?: true;
  readonly unresolved?: true;
  /** The target of an unresolved link as written, at most {@link LINE_TEXT_MAX_UNITS} UTF-16 code units (then `…`, and `linkTargetCut`). */
  readonly linkTarget?: string;
  /** `linkTarget` was longer than its bound and is cut (it ends in `…`). */
  readonly linkTargetCut?: true;
  readonly anchorMissing?: true;
  readonly embed?: true;
}

/** A page of locations as `dsh_lsp` shows them, with the counts of what the page leaves out (paging fields: {@link CappedPage}). */
export interface ShapedLocations extends CappedPage {
  /** Per-file counts of the `total` listable locations, in listing order, bounded (the rest counted in `moreFiles`). */
  readonly files: readonly FileCount[];
  readonly locations: readonly ShownLocation[];
  /** Present when a shown location's preview was withheld: says how many, why, and how to read one (the `howToRead` of {@link WithheldLines}). */
  readonly previewsWithheld?: string;
}

/**
 * What {@link ShapeOptions.readLines} answers for a document whose text must not be shown:
 * `reason` (e.g. `'outside the workspace'`) and `howToRead` (what the caller can do to read it,
 * e.g. which call asks the user).
 */
export interface WithheldLines {
  readonly withheld: string;
  readonly howToRead: string;
}

/** Options of {@link shapeLocations}. */
export interface ShapeOptions {
  readonly operation: Exclude<LspOperation, 'hover'>;
  /** The provider's resolved (real-path) workspace URI: locations inside it are workspace-relative. */
  readonly resolvedWorkspaceUri: string;
  /** Other roots (e.g. the workspace folders as opened, before resolving links) also counted as inside. */
  readonly otherRoots?: readonly string[];
  /** 0-based index of the first location to show. Default 0. */
  readonly offset?: number;
  /** Most locations shown. Default {@link DEFAULT_LIMIT}. */
  readonly limit?: number;
  /**
   * The lines of a document (split by `splitLines`), `undefined` when unreadable, or
   * {@link WithheldLines} when it must not be shown; used for previews and UTF-16 -> column
   * conversion of the shown locations only. Called once per URI, for shown locations only.
   */
  readonly readLines: (uri: string) => Promise<readonly string[] | undefined | WithheldLines>;
}

/** Default page size of `dsh_lsp`. */
export const DEFAULT_LIMIT = 50;
/** Largest page `dsh_lsp` accepts. */
export const MAX_LIMIT = 500;

interface Placed {
  readonly loc: NavLocation;
  readonly path: string;
  readonly where: 'workspace' | 'nodeModules' | 'external';
}

/**
 * Shape locations for the model: make paths workspace-relative and decoded, order workspace hits
 * first (declaration first, then by path, line, character), and page.
 *
 * - For `findReferences`, hits under `node_modules` and outside the workspace are collapsed into
 *   counts (with per-file counts) when there is at least one workspace hit; otherwise (and for the
 *   other operations) they are listed after the workspace hits, flagged `nodeModules` / `external`.
 * - Duplicates (same resource by decoded path, same range) are removed, keeping flags of both.
 * - Columns convert from UTF-16 with the target's line text; when a document cannot be read the
 *   column is the UTF-16 character + 1 and the preview is `''`.
 *
 * @throws RangeError when `offset` is negative or `limit` is not in `1..MAX_LIMIT` (callers validate first).
 */
export async function shapeLocations(locations: readonly NavLocation[], options: ShapeOptions): Promise<ShapedLocations> {
  const offset = options.offset ?? 0;
  const limit = options.limit ?? DEFAULT_LIMIT;
  checkInteger(offset, 'offset', { min: 0 }, (m) => new RangeError(m));
  checkInteger(limit, 'limit', { min: 1, max: MAX_LIMIT }, (m) => new RangeError(m));
  const roots = [options.resolvedWorkspaceUri, ...(options.otherRoots ?? [])];
  const pathOf = (uri: string) => placeUri(roots, uri);

  const seen = new Map<string, number>();
  const placed: Placed[] = [];
  for (const loc of locations) {
    const key = `${uriKey(loc.uri)}#${loc.range.start.line}:${loc.range.start.character}-${loc.range.end.line}:${loc.range.end.character}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      const prev = placed[earlier]!;
      placed[earlier] = { ...prev, loc: { ...loc, ...prev.loc, isDeclaration: prev.loc.isDeclaration || loc.isDeclaration } };
      continue;
    }
    const { path, where } = pathOf(loc.uri);
    seen.set(key, placed.length);
    placed.push({ loc, path, where });
  }

  const rank = { workspace: 0, nodeModules: 1, external: 2 } as const;
  placed.sort(
    (a, b) =>
      rank[a.where] - rank[b.where] ||
      Number(!!b.loc.isDeclaration) - Number(!!a.loc.isDeclaration) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) ||
      a.loc.range.start.line - b.loc.range.start.line ||
      a.loc.range.start.character - b.loc.range.start.character,
  );

  const hasWorkspaceHit = placed.some((p) => p.where === 'workspace');
  const collapse = options.operation === 'findReferences' && hasWorkspaceHit;
  const listed = collapse ? placed.filter((p) => p.where === 'workspace' || p.loc.isDeclaration) : placed;
  const folded = collapse ? placed.filter((p) => p.where !== 'workspace' && !p.loc.isDeclaration) : [];

  const collapsedAll: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } = {};
  for (const where of ['nodeModules', 'external'] as const) {
    const group = folded.filter((p) => p.where === where);
    if (group.length > 0) collapsedAll[where] = { count: group.length, files: countFiles(group) };
  }
  const { page, paging } = shapePage({
    listed,
    offset,
    limit,
    files: countFiles(listed),
    collapsed: collapsedAll,
    seeMore: 'page with offset (the results are in listing order: workspace, then by path)',
  });
  const cache = new Map<string, Promise<readonly string[] | undefined | WithheldLines>>();
  const lines = (uri: string) => {
    const k = uriKey(uri);
    let p = cache.get(k);
    if (!p) {
      p = options.readLines(uri).catch(() => undefined);
      cache.set(k, p);
    }
    return p;
  };
  const shown = await Promise.all(page.map(async (p) => show(p, await lines(p.loc.uri), pathOf)));
  const withheld = (await Promise.all(page.map((p) => lines(p.loc.uri)))).filter(isWithheld);
  return {
    ...paging,
    files: paging.files ?? [],
    locations: shown,
    ...(withheld.length > 0
      ? {
          previewsWithheld: `${withheld.length} shown location${withheld.length === 1 ? '' : 's'} without preview (${[...new Set(withheld.map((w) => w.withheld))].join('; ')}): ${withheld[0]!.howToRead}`,
        }
      : {}),
  };
}

function isWithheld(x: readonly string[] | undefined | WithheldLines): x is WithheldLines {
  return x !== undefined && !Array.isArray(x) && typeof (x as WithheldLines).withheld === 'string';
}

/** How many of `items` lie in each file, by shown path. */
function countFiles(items: readonly Placed[]): FileCount[] {
  const counts = new Map<string, number>();
  for (const p of items) counts.set(p.path, (counts.get(p.path) ?? 0) + 1);
  return [...counts.entries()].map(([path, count]) => ({ path, count }));
}

function show(p: Placed, answer: readonly string[] | undefined | WithheldLines, pathOf: (uri: string) => PlacedPath): ShownLocation {
  const { loc } = p;
  const withheld = isWithheld(answer) ? answer.withheld : undefined;
  const lines = isWithheld(answer) ? undefined : answer;
  const col = (line: number, character: number) => {
    const text = lines?.[line];
    return text === undefined ? character + 1 : characterToModelColumn(text, character);
  };
  const text = lines?.[loc.range.start.line];
  return {
    path: p.path,
    line: loc.range.start.line + 1,
    column: col(loc.range.start.line, loc.range.start.character),
    endLine: loc.range.end.line + 1,
    endColumn: col(loc.range.end.line, loc.range.end.character),
    preview: text === undefined ? '' : preview(text),
    ...(withheld !== undefined ? { previewWithheld: withheld } : {}),
    ...(loc.isDeclaration ? { isDeclaration: true as const } : {}),
    ...(p.where === 'external' ? { external: true as const } : {}),
    ...(p.where === 'nodeModules' ? { nodeModules: true as const } : {}),
    ...(loc.ambiguous ? { ambiguous: true as const } : {}),
    ...(loc.candidates ? { candidates: loc.candidates.slice(0, MAX_NAMED).map((c) => pathOf(c).path) } : {}),
    ...(loc.candidates && loc.candidates.length > MAX_NAMED ? { moreCandidates: loc.candidates.length - MAX_NAMED } : {}),
    ...(loc.fuzzy ? { fuzzy: true as const } : {}),
    ...(loc.unresolved ? { unresolved: true as const } : {}),
    ...(loc.linkTarget !== undefined ? { linkTarget: textHead(loc.linkTarget, LINE_TEXT_MAX_UNITS) } : {}),
    ...(loc.linkTarget !== undefined && loc.linkTarget.length > LINE_TEXT_MAX_UNITS ? { linkTargetCut: true as const } : {}),
    ...(loc.anchorMissing ? { anchorMissing: true as const } : {}),
    ...(loc.embed ? { embed: true as const } : {}),
  };
}
