/**
 * Wiki-link resolution rules (plain Node, no `vscode` import), after Obsidian's and Foam's:
 *
 * 1. An explicit `.md` / `.markdown` on the target is accepted and stripped (`[[Note.md]]`).
 * 2. Path links (Foam): a target starting with `/` is a path from the workspace root; one starting
 *    with `./` or `../` is relative to the linking note's folder. They match that path exactly
 *    (case-insensitively, exact case preferred).
 * 3. Identifier links: the target (`note`, `dir/note`) matches every note whose workspace-relative
 *    path without extension equals it or ends with `/` + it (path-suffix match),
 *    case-insensitively; when some candidates match with the exact case, only those stay.
 * 4. Not a note: a file of another type (an attachment such as `image.png`) by its full name, same
 *    suffix rule.
 * 5. Still nothing: a folder's `index.md` / `README.md` for a folder of that name (Foam's
 *    directory links).
 * 6. Still nothing: a slug match (`My Note` -> `my-note.md`), marked `fuzzy`: a fallback, never
 *    silently equal to a literal match.
 * 7. Several candidates left: the one in the linking note's folder, then the shallowest path, then
 *    the alphabetically first path (UTF-16 code-unit order); the result is marked `ambiguous` and
 *    lists every candidate in that order.
 * 8. Nothing matches: unresolved. Nothing is ever created or written.
 */

/** A file the resolver can point to: a markdown note or another file (attachment). */
export interface ResolvableFile {
  readonly kind: 'note' | 'attachment';
  /** URI string of the file. */
  readonly uri: string;
  /** Workspace-relative path, decoded, `/`-separated: `user/features/wikilinks.md`. */
  readonly relPath: string;
  /** For notes the path without its extension (`user/features/wikilinks`); for attachments the path itself. */
  readonly relKey: string;
  /** The folder part of `relPath` (`user/features`, `''` at the root). */
  readonly dir: string;
  /** Number of `/` in `relPath` (0 at the root). */
  readonly depth: number;
  /** For notes the file name without extension, for attachments the whole file name. */
  readonly name: string;
}

/** How a link resolved. */
export type Resolution =
  | {
      readonly kind: 'resolved';
      readonly file: ResolvableFile;
      /** Every candidate in tie-break order (the chosen one first); length > 1 iff `ambiguous`. */
      readonly candidates: readonly ResolvableFile[];
      readonly ambiguous: boolean;
      /** Matched only by the slug fallback (rule 6). */
      readonly fuzzy: boolean;
      /** Which rule matched. */
      readonly via: 'path' | 'name' | 'attachment' | 'folder-index' | 'slug';
    }
  | { readonly kind: 'unresolved'; readonly reason: string };

/** Note file extensions (lower case), the order in which `name.md` beats `name.markdown` is irrelevant: both are notes. */
export const NOTE_EXTENSIONS: readonly string[] = ['.md', '.markdown'];

/** The note extension of a path (`.md`, `.markdown`, case-insensitive) or `undefined`. */
export function noteExtensionOf(path: string): string | undefined {
  const lower = path.toLowerCase();
  return NOTE_EXTENSIONS.find((e) => lower.endsWith(e) && lower.length > e.length);
}

/**
 * Slug of a name, for the fuzzy fallback (GitHub/Foam style): NFC, lower case, every run of
 * characters that are not letters or digits becomes one `-`, no leading or trailing `-`.
 * `'My Note'` -> `'my-note'`, `'Einstein, Albert'` -> `'einstein-albert'`.
 */
export function slugify(s: string): string {
  return s
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** Make a `ResolvableFile` from a workspace-relative path. */
export function makeFile(uri: string, relPath: string): ResolvableFile {
  const slash = relPath.lastIndexOf('/');
  const dir = slash < 0 ? '' : relPath.slice(0, slash);
  const base = relPath.slice(slash + 1);
  const ext = noteExtensionOf(base);
  const kind = ext ? 'note' : 'attachment';
  const name = ext ? base.slice(0, base.length - ext.length) : base;
  const relKey = ext ? relPath.slice(0, relPath.length - ext.length) : relPath;
  return { kind, uri, relPath, relKey, dir, depth: slash < 0 ? 0 : relPath.split('/').length - 1, name };
}

/** Read access to the files the resolver chooses from (implemented by the vault index). */
export interface FileCatalog {
  /** Files whose `name` lower-cased equals `nameLower` (notes by name, attachments by file name). */
  byName(nameLower: string): Iterable<ResolvableFile>;
  /** Notes whose `slugify(name)` equals `slug`. */
  bySlug(slug: string): Iterable<ResolvableFile>;
}

/** The grouping key of a link target: its last path segment, lower case, without a note extension (`Dir/My Note.md` -> `my note`). */
export function targetNameKey(target: string): string {
  const t = stripNoteExtension(target.trim());
  const seg = t.slice(t.lastIndexOf('/') + 1);
  return seg.toLowerCase();
}

function stripNoteExtension(t: string): string {
  const ext = noteExtensionOf(t);
  return ext ? t.slice(0, t.length - ext.length) : t;
}

/** Normalise `a//b/./c/../d` -> `a/b/d`; `undefined` when `..` climbs above the start. */
function normalizeSegments(segments: string[]): string[] | undefined {
  const out: string[] = [];
  for (const s of segments) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(s);
  }
  return out;
}

/**
 * Resolve a link target (as written, without its anchor; non-empty) from the note at
 * `sourceDir` (workspace-relative folder, `''` at the root; `undefined` for a document outside
 * the index, which disables the same-folder preference) against `catalog`.
 */
export function resolveTarget(target: string, sourceDir: string | undefined, catalog: FileCatalog): Resolution {
  const raw = target.trim();
  if (raw === '') return { kind: 'unresolved', reason: 'empty target' };
  const explicitNote = noteExtensionOf(raw) !== undefined;
  const t = stripNoteExtension(raw);

  // Rule 2: path links.
  const isRootPath = t.startsWith('/');
  const isRelPath = t === '.' || t === '..' || t.startsWith('./') || t.startsWith('../');
  if (isRootPath || isRelPath) {
    const base = isRelPath ? (sourceDir ?? '').split('/') : [];
    const segs = normalizeSegments([...base, ...t.split('/')]);
    if (!segs || segs.length === 0) return { kind: 'unresolved', reason: `path '${raw}' leaves the workspace` };
    const wanted = segs.join('/');
    const nameLower = segs[segs.length - 1]!.toLowerCase();
    const matches = (f: ResolvableFile) => f.relKey.toLowerCase() === wanted.toLowerCase();
    let found = [...catalog.byName(nameLower)].filter((f) => f.kind === 'note' && matches(f));
    if (found.length === 0 && !explicitNote) found = [...catalog.byName(nameLower)].filter((f) => f.kind === 'attachment' && matches(f));
    if (found.length > 0)
      return choose(
        preferExact(found, (f) => f.relKey === wanted),
        sourceDir,
        false,
        'path',
      );
    return { kind: 'unresolved', reason: `no file at path '${wanted}'` };
  }

  // Rule 3: identifier links (path-suffix match).
  const segs = t.split('/').filter((s) => s !== '');
  if (segs.length === 0) return { kind: 'unresolved', reason: `no name in '${raw}'` };
  const wanted = segs.join('/');
  const wantedLower = wanted.toLowerCase();
  const nameLower = segs[segs.length - 1]!.toLowerCase();
  const suffix = (key: string, w: string) => key === w || key.endsWith('/' + w);
  const notes = [...catalog.byName(nameLower)].filter((f) => f.kind === 'note' && suffix(f.relKey.toLowerCase(), wantedLower));
  if (notes.length > 0)
    return choose(
      preferExact(notes, (f) => suffix(f.relKey, wanted)),
      sourceDir,
      false,
      'name',
    );

  // Rule 4: attachments by full file name.
  if (!explicitNote) {
    const files = [...catalog.byName(nameLower)].filter((f) => f.kind === 'attachment' && suffix(f.relKey.toLowerCase(), wantedLower));
    if (files.length > 0)
      return choose(
        preferExact(files, (f) => suffix(f.relKey, wanted)),
        sourceDir,
        false,
        'attachment',
      );
  }

  // Rule 5: folder index (Foam directory links): <…/wanted>/index.md or README.md.
  const indexes = ['index', 'readme'].flatMap((n) =>
    [...catalog.byName(n)].filter((f) => f.kind === 'note' && suffix(f.dir.toLowerCase(), wantedLower)),
  );
  if (indexes.length > 0)
    return choose(
      preferExact(indexes, (f) => suffix(f.dir, wanted)),
      sourceDir,
      false,
      'folder-index',
    );

  // Rule 6: slug fallback, fuzzy.
  const slugSegs = segs.map(slugify);
  const lastSlug = slugSegs[slugSegs.length - 1]!;
  if (lastSlug !== '') {
    const wantedSlug = slugSegs.join('/');
    const fuzzy = [...catalog.bySlug(lastSlug)].filter(
      (f) => f.kind === 'note' && suffix(f.relKey.split('/').map(slugify).join('/'), wantedSlug),
    );
    if (fuzzy.length > 0) return choose(fuzzy, sourceDir, true, 'slug');
  }
  return { kind: 'unresolved', reason: `no note named '${wanted}'` };
}

function preferExact(files: ResolvableFile[], exact: (f: ResolvableFile) => boolean): ResolvableFile[] {
  const e = files.filter(exact);
  return e.length > 0 ? e : files;
}

/** Rule 7: deterministic order: same folder as the source, then shallowest, then alphabetical path. */
export function tieBreakOrder(files: readonly ResolvableFile[], sourceDir: string | undefined): ResolvableFile[] {
  return [...files].sort((a, b) => {
    const sa = sourceDir !== undefined && a.dir === sourceDir ? 0 : 1;
    const sb = sourceDir !== undefined && b.dir === sourceDir ? 0 : 1;
    if (sa !== sb) return sa - sb;
    if (a.depth !== b.depth) return a.depth - b.depth;
    return a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0;
  });
}

function choose(
  files: ResolvableFile[],
  sourceDir: string | undefined,
  fuzzy: boolean,
  via: Extract<Resolution, { kind: 'resolved' }>['via'],
): Resolution {
  const unique = [...new Map(files.map((f) => [f.relPath, f])).values()];
  const ordered = tieBreakOrder(unique, sourceDir);
  return { kind: 'resolved', file: ordered[0]!, candidates: ordered, ambiguous: ordered.length > 1, fuzzy, via };
}
