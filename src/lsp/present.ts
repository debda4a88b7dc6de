/**
 * What the model sees of a navigation answer (plain Node, no `vscode` import): the `dsh_lsp`
 * tool's result shaping, hover flattening and declaration-keyword snapping. The VS Code layer only
 * feeds it documents' lines.
 *
 * Coordinates: everything produced here for the model is 1-based (line, column counted in
 * characters, i.e. code points); everything consumed from the seam is LSP (0-based line, 0-based
 * UTF-16 character). The conversion uses `./position.ts` only.
 */

import { characterToModelColumn } from './position';
import { LspOperation, NavLocation } from './types';
import { parseUri, relativePathOf, uriKey } from './uri';

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
  /** Every matching target (chosen first), as paths like {@link path}. */
  readonly candidates?: readonly string[];
  readonly fuzzy?: true;
  readonly unresolved?: true;
  readonly linkTarget?: string;
  readonly anchorMissing?: true;
  readonly embed?: true;
}

/** A per-file count: `path` as in {@link ShownLocation.path}. */
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
export interface ShapedLocations {
  /** Listable locations (workspace first), before paging; collapsed ones excluded. */
  readonly total: number;
  /** How many are in {@link locations} (`<= limit`). */
  readonly shown: number;
  /** 0-based index of the first shown location among the `total`. */
  readonly offset: number;
  /** The `offset` for the next page, when there is one. */
  readonly nextOffset?: number;
  /** E.g. `"showing 1–50 of 150 in 3 files; 4 in node_modules not listed"`, or `"no results"`. */
  readonly summary: string;
  /** Per-file counts of the `total` listable locations, in listing order. */
  readonly files: readonly FileCount[];
  readonly locations: readonly ShownLocation[];
  /** Present when references were collapsed: `nodeModules` and/or `external` groups. */
  readonly collapsed?: { readonly nodeModules?: CollapsedGroup; readonly external?: CollapsedGroup };
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
/** Bound on a preview line. */
export const PREVIEW_MAX_CHARS = 200;

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
  if (!Number.isInteger(offset) || offset < 0) throw new RangeError(`offset must be an integer >= 0, got ${offset}`);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw new RangeError(`limit must be an integer in 1..${MAX_LIMIT}, got ${limit}`);
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

  const page = listed.slice(offset, offset + limit);
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

  const collapsed: { nodeModules?: CollapsedGroup; external?: CollapsedGroup } = {};
  for (const where of ['nodeModules', 'external'] as const) {
    const group = folded.filter((p) => p.where === where);
    if (group.length > 0) collapsed[where] = { count: group.length, files: countFiles(group) };
  }
  const files = countFiles(listed);
  const nextOffset = offset + page.length < listed.length ? offset + page.length : undefined;
  return {
    total: listed.length,
    shown: shown.length,
    offset,
    ...(nextOffset !== undefined ? { nextOffset } : {}),
    summary: summarize(listed.length, offset, shown.length, files.length, collapsed, nextOffset),
    files,
    locations: shown,
    ...(Object.keys(collapsed).length > 0 ? { collapsed } : {}),
    ...(withheld.length > 0
      ? { previewsWithheld: `${withheld.length} shown location${withheld.length === 1 ? '' : 's'} without preview (${[...new Set(withheld.map((w) => w.withheld))].join('; ')}): ${withheld[0]!.howToRead}` }
      : {}),
  };
}

function isWithheld(x: readonly string[] | undefined | WithheldLines): x is WithheldLines {
  return x !== undefined && !Array.isArray(x) && typeof (x as WithheldLines).withheld === 'string';
}

/** Where a URI lies for the model: its shown path and whether it is in the workspace, under `node_modules`, or outside. */
export interface PlacedPath {
  /** Workspace-relative and decoded (`docs/My Notes #1/a.ts`); the absolute path (or the URI for other schemes) outside. */
  readonly path: string;
  readonly where: 'workspace' | 'nodeModules' | 'external';
}

/**
 * Place `uri` against workspace `roots` (URI strings, the first containing root wins): the path to
 * show and where it lies (see {@link PlacedPath}). The one rule for paths in every tool's answer.
 */
export function placeUri(roots: readonly string[], uri: string): PlacedPath {
  for (const root of roots) {
    const rel = relativePathOf(root, uri);
    if (rel !== undefined) return { path: rel, where: /(^|\/)node_modules\//.test(rel) ? 'nodeModules' : 'workspace' };
  }
  const u = parseUri(uri);
  return { path: u.scheme === 'file' ? u.path : uri, where: 'external' };
}

function countFiles(items: readonly Placed[]): FileCount[] {
  const counts = new Map<string, number>();
  for (const p of items) counts.set(p.path, (counts.get(p.path) ?? 0) + 1);
  return [...counts.entries()].map(([path, count]) => ({ path, count }));
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
    ...(loc.candidates ? { candidates: loc.candidates.map((c) => pathOf(c).path) } : {}),
    ...(loc.fuzzy ? { fuzzy: true as const } : {}),
    ...(loc.unresolved ? { unresolved: true as const } : {}),
    ...(loc.linkTarget !== undefined ? { linkTarget: loc.linkTarget } : {}),
    ...(loc.anchorMissing ? { anchorMissing: true as const } : {}),
    ...(loc.embed ? { embed: true as const } : {}),
  };
}

/**
 * A line trimmed and bounded to {@link PREVIEW_MAX_CHARS} code points (`…` appended when cut).
 * Reads only the code points it keeps: a location on a minified file's one line of megabytes
 * costs as little as one on a short line.
 */
export function preview(line: string): string {
  const t = line.trim();
  if (t.length <= PREVIEW_MAX_CHARS) return t; // UTF-16 units ≥ code points
  let kept = 0;
  let end = 0;
  for (const cp of t) {
    if (kept === PREVIEW_MAX_CHARS) return t.slice(0, end) + '…';
    kept++;
    end += cp.length;
  }
  return t;
}

/**
 * Flatten hover contents of every shape VS Code and LSP use, without `instanceof` (objects may
 * come from another extension's copy of the API):
 * - a string (a `MarkedString` in markdown);
 * - `{value, kind?}` / `{value, isTrusted?, …}` (`MarkdownString`, LSP `MarkupContent`);
 * - `{language, value}` (a code `MarkedString`);
 * - an array of those, or `{contents}` objects (`Hover`) holding those.
 *
 * Markdown code fences are removed (their content kept), so `const x: 1` reads as plain text.
 * Empty parts (blank text, fences with nothing inside) are dropped; when nothing is left the
 * answer is `null` (no hover), never an empty code block. Parts are joined by a blank line and
 * duplicates removed.
 */
export function flattenHover(contents: unknown): string | null {
  const parts: string[] = [];
  const visit = (c: unknown, depth: number): void => {
    if (c === null || c === undefined || depth > 4) return;
    if (typeof c === 'string') {
      parts.push(markdownToText(c));
      return;
    }
    if (Array.isArray(c)) {
      for (const x of c) visit(x, depth + 1);
      return;
    }
    if (typeof c === 'object') {
      const o = c as { value?: unknown; language?: unknown; contents?: unknown };
      if (typeof o.value === 'string') {
        parts.push(typeof o.language === 'string' ? o.value.trim() : markdownToText(o.value));
      } else if (o.contents !== undefined) {
        visit(o.contents, depth + 1);
      }
    }
  };
  visit(contents, 0);
  const unique = [...new Set(parts.filter((p) => p.trim().length > 0))];
  return unique.length > 0 ? unique.join('\n\n') : null;
}

/** Markdown to readable text: code fences dropped (content kept), horizontal rules dropped, trimmed. */
function markdownToText(md: string): string {
  return md
    .split(/\r\n|\r|\n/)
    .filter((l) => !/^\s*(```|~~~)/.test(l) && !/^\s*(-{3,}|\*{3,}|_{3,})\s*$/.test(l))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * True for a hover answered while the language server is still loading the project: TypeScript's
 * syntax server prefixes such hovers with `(loading...)` (the semantic answer comes later).
 */
export function isLoadingHover(text: string | null): boolean {
  return text !== null && /^\(?\s*loading\s*(\.\.\.|…)\s*\)?(\s|$)/i.test(text.trim());
}

/** Words that start a declaration but never name it, across common languages. */
const DECLARATION_KEYWORDS = new Set([
  'export', 'default', 'declare', 'async', 'function', 'function*', 'class', 'interface', 'type', 'enum', 'const', 'let', 'var',
  'abstract', 'public', 'private', 'protected', 'static', 'readonly', 'override', 'namespace', 'module', 'get', 'set',
  'def', 'fn', 'pub', 'struct', 'impl', 'trait', 'func', 'val', 'final', 'record', 'extern', 'unsafe', 'mut',
]);

/** Result of {@link snapToDeclaredName}. */
export interface Snap {
  /** The 1-based column to use. */
  readonly column: number;
  /** The identifier (or other token) at that column, `''` when the column is on no token. */
  readonly token: string;
  /** Set when the column moved: says from which keyword to which name. */
  readonly note?: string;
}

/**
 * L11: when `column` (1-based, code points) lies on a declaration keyword (`export`, `function`,
 * `const`, …), move it to the first identifier after the keywords on the same line, i.e. the
 * declared name (`export default async function helper()` -> `helper`). Otherwise the column
 * stays and `token` names the word under it, so the tool can say which token was used.
 */
export function snapToDeclaredName(lineText: string, column: number): Snap {
  const at = column - 1;
  let word: { start: number; end: number; text: string } | undefined;
  // One pass over the words (0-based code point indices, end exclusive), counting code points
  // only between consecutive words, so a minified line of megabytes costs linear time; it stops
  // at the word under the column, or at the declared name after a keyword there.
  for (const w of wordsOf(lineText)) {
    if (word === undefined) {
      if (w.end <= at) continue;
      if (w.start > at) break;
      word = w;
      if (!DECLARATION_KEYWORDS.has(w.text)) return { column, token: w.text };
      continue;
    }
    if (DECLARATION_KEYWORDS.has(w.text)) continue;
    return { column: w.start + 1, token: w.text, note: `column ${column} is on the keyword '${word.text}'; used the declared name '${w.text}' at column ${w.start + 1}` };
  }
  if (word === undefined) {
    const cp = codePointAt(lineText, at);
    return { column, token: cp !== undefined && !/\s/.test(cp) ? cp : '' };
  }
  return { column, token: word.text, note: `column ${column} is on the keyword '${word.text}' and no declared name follows on this line; pass the column of the name or 'symbol'` };
}

/** The identifiers of `lineText` in order, with 0-based code point start and end (exclusive). */
function* wordsOf(lineText: string): Generator<{ start: number; end: number; text: string }> {
  const re = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/gu;
  let unit = 0; // UTF-16 index where the previous word ended
  let cp = 0; // code points before `unit`
  for (const m of lineText.matchAll(re)) {
    cp += characterToModelColumn(lineText.slice(unit, m.index), m.index - unit) - 1;
    const end = m.index + m[0].length;
    const len = characterToModelColumn(m[0], m[0].length) - 1;
    yield { start: cp, end: cp + len, text: m[0] };
    cp += len;
    unit = end;
  }
}

/** The code point at 0-based code point index `index` of `text`, or undefined past its end. */
function codePointAt(text: string, index: number): string | undefined {
  let k = 0;
  for (const c of text) if (k++ === index) return c;
  return undefined;
}
