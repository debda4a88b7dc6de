/**
 * The `md-links` navigation provider: markdown wiki links as symbols, without a language server
 * (plain Node, no `vscode` import). Registers on the seam for `.md` and `.markdown`.
 *
 * - `goToDefinition` on a link -> the note it resolves to (line 0), the heading line for
 *   `[[Note#Heading]]`, the block line for `[[Note#^id]]` (file start, `anchorMissing`, when the
 *   anchor is not found). An unresolved link answers one location, the link itself, flagged
 *   `unresolved` (nothing is created). Not on a link: no locations.
 * - `findReferences` on a link, or anywhere else in a note (meaning the note itself) -> the
 *   declaration (the note's start, `isDeclaration`) and every link in the workspace that
 *   resolves to the note, the one at the query position included; embeds count. On an unresolved
 *   link: every link with the same unresolved target, flagged `unresolved`.
 * - `goToImplementation` -> no locations (legal: the four operations are a closed set, not four
 *   promises every provider must fill).
 * - `hover` on a resolved link -> the note's title and its first lines (bounded); otherwise `null`.
 * - A note over the index's limits is indexed partly (`NOTE_LIMITS`): a query at a line of it that
 *   was not indexed is refused with an `unsupported` error that says which lines are indexed; a
 *   hover on a link to such a note says so.
 */

import { raceAbort, throwIfAborted } from '../cancellation';
import { LspError, LspProvider, LspRequest, LspResult, NavLocation, Range, assertNever, Disposable } from '../types';
import { canonicalUri, uriKey } from '../uri';
import { headLines } from '../headLines';
import { slugify, ResolvableFile, Resolution } from './resolve';
import type { IndexedLink, IndexedNote } from './noteCatalog';
import { NoteText, VaultIndex, VaultIndexOptions } from './vaultIndex';
import { isNotFoundError, WorkspaceFs } from './workspaceFs';
import type { WikiLink } from './parsedNote';
import { partialText } from './partialText';
import { someNames } from '../pageSummary';
import { noteText } from './noteParser';
import { mayBeFolderLoosely } from '../../common/createdFolder';

/** How many entries reported before any index took them are kept for the indexes built later. */
const MAX_EARLY_ENTRIES = 1024;

/** Options of the `md-links` provider: the index options plus hover bounds. */
export interface MdLinksOptions extends VaultIndexOptions {
  /** Most lines of the target note shown in a hover (after the title). Default 12. */
  readonly hoverMaxLines?: number;
  /** Most characters of a hover's excerpt. Default 1200. */
  readonly hoverMaxChars?: number;
}

/** The provider id on the seam. */
export const MD_LINKS_PROVIDER_ID = 'md-links';

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/**
 * The wiki-link provider. One instance serves every workspace folder: each request's
 * `workspaceUri` selects (and on first use builds) that folder's {@link VaultIndex}, keyed by its
 * real path. Keep indexes current with {@link onFileChanged} / {@link onFileDeleted} (from a file
 * watcher and editor change events); queries never rescan.
 */
export class MdLinksProvider implements LspProvider, Disposable {
  readonly id = MD_LINKS_PROVIDER_ID;
  readonly extensions: Readonly<Record<string, string>> = Object.freeze({ '.md': 'markdown', '.markdown': 'markdown' });
  private readonly byGivenRoot = new Map<string, Promise<VaultIndex>>();
  private readonly byRealRoot = new Map<string, VaultIndex>();
  /**
   * Entries reported created or changed that no index took (none was built for their folder
   * yet) and whose name may be a folder's (`mayBeFolderLoosely`), oldest first, at most
   * {@link MAX_EARLY_ENTRIES}. A folder made before the first query may hold folders no file
   * watcher watches (see `./folderWatch.ts`): an index, once built, is told about those inside
   * its folder again.
   */
  private readonly earlyEntries = new Set<string>();
  /** Folders another provider's indexes watched themselves, to be watched again by the indexes built here ({@link takeOverWatches}). */
  private readonly inheritedWatches = new Set<string>();
  private disposed = false;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly options: MdLinksOptions = {},
  ) {}

  /**
   * The built index of a workspace folder (built on first use; later calls share it).
   * @param workspaceUri the folder's URI; resolved to its real path when `fs.realUri` exists.
   * @throws LspError `file_not_found` when the folder does not exist; `cancelled` when `signal`
   *   aborts while waiting (the build itself continues for later queries).
   */
  async index(workspaceUri: string, signal?: AbortSignal): Promise<VaultIndex> {
    if (this.disposed) throw new LspError('provider_failed', `provider '${this.id}' is disposed`);
    const key = uriKey(workspaceUri);
    let p = this.byGivenRoot.get(key);
    if (!p) {
      p = this.createIndex(workspaceUri);
      this.byGivenRoot.set(key, p);
      p.catch(() => {
        if (this.byGivenRoot.get(key) === p) this.byGivenRoot.delete(key);
      });
    }
    return raceAbort(p, signal);
  }

  private async createIndex(workspaceUri: string): Promise<VaultIndex> {
    const given = canonicalUri(workspaceUri);
    let real = given;
    if (this.fs.realUri) {
      try {
        real = canonicalUri(await this.fs.realUri(given));
      } catch (e) {
        if (isNotFoundError(e))
          throw new LspError('file_not_found', `workspace folder not found: ${workspaceUri}`, { uri: workspaceUri }, { cause: e });
        throw e;
      }
    }
    const realKey = uriKey(real);
    let index = this.byRealRoot.get(realKey);
    if (!index) {
      index = new VaultIndex(this.fs, real, this.options, real === given ? [] : [given]);
      this.byRealRoot.set(realKey, index); // visible to onFileChanged while it builds (updates queue behind the build)
    }
    try {
      await index.build(); // not tied to any query's signal: one build serves every query
      this.catchUp(index);
    } catch (e) {
      if (this.byRealRoot.get(realKey) === index) {
        this.byRealRoot.delete(realKey);
        index.dispose();
      }
      throw e;
    }
    return index;
  }

  /**
   * A file was created or changed (`text`: its current content, e.g. an unsaved editor buffer;
   * read from the file system when omitted). Updates every index the URI belongs to.
   */
  async onFileChanged(uri: string, text?: NoteText): Promise<void> {
    const indexes = [...this.byRealRoot.values()];
    if (text === undefined && mayBeFolderLoosely(uri) && !indexes.some((ix) => ix.relPathOf(uri) !== undefined)) {
      this.earlyEntries.delete(uri);
      this.earlyEntries.add(uri);
      if (this.earlyEntries.size > MAX_EARLY_ENTRIES) this.earlyEntries.delete(this.earlyEntries.values().next().value!);
    }
    await Promise.all(indexes.map((ix) => ix.onFileChanged(uri, text).catch(() => false)));
  }

  /** A file or folder was deleted. Updates every index the URI belongs to. */
  async onFileDeleted(uri: string): Promise<void> {
    for (const early of this.earlyEntries) if (early === uri || early.startsWith(`${uri}/`)) this.earlyEntries.delete(early);
    await Promise.all([...this.byRealRoot.values()].map((ix) => ix.onFileDeleted(uri).catch(() => false)));
  }

  /**
   * The folders this provider's indexes watch themselves (see `VaultIndex.onFileChanged`), as
   * URIs: give them to the provider that replaces this one ({@link takeOverWatches}).
   */
  watchedFolderUris(): string[] {
    return [...this.byRealRoot.values()].flatMap((index) => index.watchedFolderUris());
  }

  /**
   * Folders a provider this one replaces watched itself (its {@link watchedFolderUris}): each
   * index built here watches those inside its folder again, once built. No file watcher watches
   * them, so without this, notes written there after a rebuild would not be indexed.
   */
  takeOverWatches(folderUris: readonly string[]): void {
    for (const uri of folderUris) this.inheritedWatches.add(uri);
  }

  /**
   * Tells a just-built index about the early entries inside its folder (see {@link earlyEntries};
   * it walks the folders among them) and the inherited watches ({@link takeOverWatches}).
   */
  private catchUp(index: VaultIndex): void {
    for (const uri of takeInside(this.earlyEntries, index)) void index.onFileChanged(uri).catch(() => false);
    for (const uri of takeInside(this.inheritedWatches, index)) void index.watchFolderAgain(uri).catch(() => false);
  }

  /** Drop all indexes (their folder watches stop); later queries fail. */
  dispose(): void {
    this.disposed = true;
    for (const index of this.byRealRoot.values()) index.dispose();
    this.earlyEntries.clear();
    this.inheritedWatches.clear();
    this.byGivenRoot.clear();
    this.byRealRoot.clear();
  }

  /**
   * Answer one request (see the module comment for each operation).
   * @throws LspError `file_not_found` (document or folder missing), `outside_workspace` (the
   *   document is not inside `workspaceUri`), `cancelled`.
   */
  async query(request: LspRequest, signal: AbortSignal): Promise<LspResult> {
    const index = await this.index(request.workspaceUri, signal);
    const note = await this.documentNote(index, request.uri);
    throwIfAborted(signal);
    const partial = note.parsed.partial;
    if (partial && request.position.line >= partial.indexedLines) {
      throw new LspError(
        'unsupported',
        `${partialText(note.relPath, note.parsed.lineCount, partial)}: ask about a position in the indexed lines`,
        {
          uri: request.uri,
          indexedLines: partial.indexedLines,
          lineCount: note.parsed.lineCount,
        },
      );
    }
    const link = linkAt(note, request.position.line, request.position.character);
    const op = request.operation;
    switch (op) {
      case 'goToDefinition':
        return { kind: 'locations', locations: link ? this.definition(index, link) : [], resolvedWorkspaceUri: index.rootUri };
      case 'findReferences':
        return { kind: 'locations', locations: this.references(index, note, link), resolvedWorkspaceUri: index.rootUri };
      case 'goToImplementation':
        return { kind: 'locations', locations: [], resolvedWorkspaceUri: index.rootUri };
      case 'hover':
        return { kind: 'hover', contents: link ? await this.hover(index, link) : null };
      default:
        return assertNever(op);
    }
  }

  /**
   * The indexed note for a document URI; added to the index when it exists but was not seen yet.
   * @throws LspError `outside_workspace` (not in the index's folder), `file_not_found`.
   */
  async documentNote(index: VaultIndex, uri: string): Promise<IndexedNote> {
    let relPath = index.relPathOf(uri);
    if (relPath === undefined && this.fs.realUri) {
      try {
        relPath = index.relPathOf(await this.fs.realUri(uri));
      } catch (e) {
        if (!isNotFoundError(e)) throw e;
      }
    }
    if (relPath === undefined) {
      throw new LspError(
        'outside_workspace',
        `${uri} is not inside the workspace folder ${index.rootUri}; pass the workspace folder that contains the file`,
        {
          uri,
          workspaceUri: index.rootUri,
        },
      );
    }
    const known = index.note(relPath);
    if (known) return known;
    // The bytes go to the parser as they are (decoded where it runs, a worker's buffer handed
    // over): a big note just created is not decoded or copied on this thread.
    const read = async () => {
      try {
        return await this.fs.readFile(uri);
      } catch (e) {
        if (isNotFoundError(e))
          throw new LspError('file_not_found', `file not found: ${relPath} (in ${index.rootUri})`, { uri, relPath }, { cause: e });
        throw e;
      }
    };
    await index.onFileChanged(uri, await read());
    // Not indexed (an excluded folder): a note of its own, from a fresh read (the parser may have taken the first).
    return index.note(relPath) ?? (await index.transientNote(uri, relPath, await read()));
  }

  private definition(index: VaultIndex, l: IndexedLink): NavLocation[] {
    const r = index.resolve(l);
    const origin = { originRange: l.link.targetRange };
    if (r.kind === 'unresolved') {
      return [{ uri: l.source.uri, range: l.link.range, unresolved: true, linkTarget: l.link.target, ...origin }];
    }
    const { range, anchorMissing } = anchorRange(index.note(r.file.relPath) ?? r.file, l.link);
    return [
      {
        uri: r.file.uri,
        range,
        ...(anchorMissing ? { anchorMissing: true } : {}),
        ...resolutionFlags(r),
        ...origin,
      },
    ];
  }

  private references(index: VaultIndex, note: IndexedNote, at: IndexedLink | undefined): NavLocation[] {
    const inIndex = index.note(note.relPath) === note;
    if (at) {
      const r = index.resolve(at);
      if (r.kind === 'unresolved') {
        const links = index.unresolvedLinksLike(at);
        if (!inIndex) links.push(...note.links.filter((l) => l.link.target.trim().toLowerCase() === at.link.target.trim().toLowerCase()));
        return sortLocations(links.map((l) => ({ ...linkLocation(l, undefined), unresolved: true, linkTarget: l.link.target })));
      }
      return this.referencesTo(index, r.file, inIndex ? undefined : note);
    }
    return this.referencesTo(index, note, inIndex ? undefined : note);
  }

  private referencesTo(index: VaultIndex, file: ResolvableFile, transient: IndexedNote | undefined): NavLocation[] {
    const links = index.linksTo(file);
    if (transient) {
      for (const l of transient.links) {
        const r = index.resolve(l);
        if (r.kind === 'resolved' && (r.file === transient || r.file.relPath === file.relPath)) links.push(l);
      }
    }
    const decl: NavLocation = { uri: file.uri, range: ZERO, isDeclaration: true };
    return [decl, ...sortLocations(links.map((l) => linkLocation(l, index.resolve(l))))];
  }

  private async hover(index: VaultIndex, l: IndexedLink): Promise<string | null> {
    const r = index.resolve(l);
    if (r.kind === 'unresolved') return null;
    const file = r.file;
    const notes: string[] = [];
    if (r.ambiguous)
      notes.push(
        `ambiguous: ${r.candidates.length} files match '${l.link.target}'; showing the first of ${someNames(r.candidates.map((c) => c.relPath))}`,
      );
    if (r.fuzzy) notes.push(`fuzzy: '${l.link.target}' matched '${file.relPath}' by slug only`);
    if (file.kind !== 'note') return [`${file.name} (${file.relPath})`, ...notes.map((n) => `(${n})`)].join('\n\n');
    const target = index.note(file.relPath) ?? (file as IndexedNote); // the current parse, not a cached one
    let text: string;
    try {
      text = noteText(await this.fs.readFile(file.uri));
    } catch (e) {
      if (isNotFoundError(e)) return null;
      throw e;
    }
    const title = target.parsed.title ?? target.name;
    const lines = headLines(text); // the excerpt lies in the note's start: a huge note is not split whole
    const { range, anchorMissing } = anchorRange(target, l.link);
    let start = range.start.line;
    if (start === 0 && target.parsed.frontMatter) start = target.parsed.frontMatter.endLine + 1;
    while (start < lines.length && lines[start]!.trim() === '') start++;
    // The H1 the title came from is not repeated in the excerpt.
    if (!l.link.anchor && target.parsed.headings.some((h) => h.line === start && h.level === 1 && h.text === title)) {
      start++;
      while (start < lines.length && lines[start]!.trim() === '') start++;
    }
    const maxLines = Math.max(1, this.options.hoverMaxLines ?? 12);
    const maxChars = Math.max(40, this.options.hoverMaxChars ?? 1200);
    let excerpt = lines
      .slice(start, start + maxLines)
      .join('\n')
      .trimEnd(); // not /\s+$/, quadratic in a run of spaces
    let cut = start + maxLines < lines.length;
    if (excerpt.length > maxChars) {
      excerpt = excerpt.slice(0, maxChars);
      cut = true;
    }
    if (cut) excerpt += '\n…';
    if (anchorMissing) notes.push(`anchor '${anchorText(l.link)}' not found in ${file.relPath}`);
    if (target.parsed.partial) notes.push(`indexed partly: ${partialText(file.relPath, target.parsed.lineCount, target.parsed.partial)}`);
    return [`${title} (${file.relPath})`, excerpt, ...notes.map((n) => `(${n})`)].filter((s) => s !== '').join('\n\n');
  }
}

/** The link at an LSP position: the one containing it (`start <= character < end`), else one ending exactly there. */
function linkAt(note: IndexedNote, line: number, character: number): IndexedLink | undefined {
  const onLine = note.links.filter((l) => l.link.range.start.line === line);
  return (
    onLine.find((l) => l.link.range.start.character <= character && character < l.link.range.end.character) ??
    onLine.find((l) => l.link.range.end.character === character)
  );
}

function anchorText(link: WikiLink): string {
  const a = link.anchor;
  return !a ? '' : a.kind === 'block' ? `#^${a.id}` : `#${a.text}`;
}

/** Where a link lands in its target: heading/block line, or the file start (with `anchorMissing` when an anchor was not found). */
export function anchorRange(file: ResolvableFile, link: WikiLink): { range: Range; anchorMissing: boolean } {
  const a = link.anchor;
  if (!a) return { range: ZERO, anchorMissing: false };
  const parsed = (file as Partial<IndexedNote>).parsed;
  if (!parsed) return { range: ZERO, anchorMissing: true };
  if (a.kind === 'heading') {
    const want = a.text;
    const h =
      parsed.headings.find((x) => x.text === want) ??
      parsed.headings.find((x) => x.text.toLowerCase() === want.toLowerCase()) ??
      parsed.headings.find((x) => slugify(x.text) === slugify(want) && slugify(want) !== '');
    return h ? { range: h.range, anchorMissing: false } : { range: ZERO, anchorMissing: true };
  }
  const b = parsed.blocks.find((x) => x.id === a.id) ?? parsed.blocks.find((x) => x.id.toLowerCase() === a.id.toLowerCase());
  return b ? { range: b.range, anchorMissing: false } : { range: ZERO, anchorMissing: true };
}

function resolutionFlags(r: Resolution): Partial<NavLocation> {
  if (r.kind !== 'resolved') return {};
  return {
    ...(r.ambiguous ? { ambiguous: true, candidates: r.candidates.map((c) => c.uri) } : {}),
    ...(r.fuzzy ? { fuzzy: true } : {}),
  };
}

function linkLocation(l: IndexedLink, r: Resolution | undefined): NavLocation {
  return {
    uri: l.source.uri,
    range: l.link.range,
    ...(l.link.embed ? { embed: true } : {}),
    ...(r ? resolutionFlags(r) : {}),
  };
}

function sortLocations(locs: NavLocation[]): NavLocation[] {
  const seen = new Set<string>();
  return locs
    .filter((l) => {
      const k = `${l.uri}|${l.range.start.line}|${l.range.start.character}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    })
    .sort((a, b) => {
      if (a.uri !== b.uri) return a.uri < b.uri ? -1 : 1;
      if (a.range.start.line !== b.range.start.line) return a.range.start.line - b.range.start.line;
      return a.range.start.character - b.range.start.character;
    });
}

/** The URIs of `uris` that lie in `index`'s folder, removed from `uris`. */
function takeInside(uris: Set<string>, index: VaultIndex): string[] {
  const inside = [...uris].filter((uri) => index.relPathOf(uri) !== undefined);
  for (const uri of inside) uris.delete(uri);
  return inside;
}
