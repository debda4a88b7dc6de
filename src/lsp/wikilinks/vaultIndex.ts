/**
 * The index of one workspace folder's notes and links (plain Node, no `vscode` import): built once
 * by walking the folder, then kept current by {@link VaultIndex.onFileChanged} and
 * {@link VaultIndex.onFileDeleted}, so queries never rescan. Reads go through a
 * {@link WorkspaceFs}; nothing is ever written.
 * One concept in one file (over 400 lines): the index of one folder's notes.
 */

import { throwIfAborted } from '../cancellation';
import { TimeSlice } from '../timeSlice';
import { LspError } from '../types';
import { joinUri, relativePathOf } from '../uri';
import { NoteFile, NoteParser, NoteReadError, NoteSource, inlineNoteParser } from './noteParser';
import { NOTE_LIMITS, NoteLimits } from './parse';
import type { AliasOrder, ParsedNote, WikiLink } from './parsedNote';
import { FileCatalog, makeFile, noteExtensionOf, ResolvableFile, Resolution, resolveTarget, slugify, targetNameKey } from './resolve';
import { FileType, isNotFoundError, WorkspaceFs } from './workspaceFs';
import { errorMessage } from '../../common/errorMessage';
import { mayBeFolderLoosely } from '../../common/createdFolder';
import type { Disposable } from '../../common/disposable';

/** A document's current text (or its UTF-8 bytes, handed over as `NoteParser.parse` says), or a function that gives it when it is needed. */
export type NoteText = NoteSource | (() => NoteSource);

/** Options of a {@link VaultIndex}. */
export interface VaultIndexOptions {
  /** Which side of `|` is the target. Default `'target-first'` (Obsidian/Foam). */
  readonly aliasOrder?: AliasOrder;
  /**
   * Folder names never walked, at any depth. Default `['node_modules']`; folders whose name
   * starts with `.` (`.git`, `.obsidian`, `.foam`, `.vscode`) are always skipped.
   */
  readonly excludeFolders?: readonly string[];
  /**
   * How many notes are read at once while building, when the index reads them itself (a parser
   * without `parseFile`, or a file only `fs.readFile` reads). Default 32. A worker parser reads
   * the notes it is given one at a time, in its own thread.
   */
  readonly readConcurrency?: number;
  /**
   * Told about every note skipped because it could not or must not be read (a FIFO or device
   * named like a note, a link to `/proc`, a file over the read cap or outside the workspace), with
   * the reader's message; during the build and on updates. The extension logs it.
   */
  readonly onSkip?: (uri: string, message: string) => void;
  /**
   * Where notes are parsed. Default {@link inlineNoteParser} (on the calling thread); the
   * extension passes a `WorkerNoteParser` so no parse blocks the extension host thread.
   */
  readonly parser?: NoteParser;
  /** A note over these is indexed partly ({@link ParsedNote.partial}). Default {@link NOTE_LIMITS}. */
  readonly noteLimits?: NoteLimits;
  /**
   * How many folders the index watches itself at most (the folders inside a folder reported
   * created, see {@link VaultIndex.onFileChanged}). Default 4096; past it, a folder is not watched
   * and that is told to {@link onSkip}.
   */
  readonly maxWatchedFolders?: number;
}

/** A note in the index. */
export interface IndexedNote extends ResolvableFile {
  readonly kind: 'note';
  readonly parsed: ParsedNote;
  readonly links: readonly IndexedLink[];
}

/** A link in the index: the parsed link, the note it is written in, and a cached resolution. */
export interface IndexedLink {
  readonly link: WikiLink;
  readonly source: IndexedNote;
  /** @internal resolution cache, valid while `generation` equals the index's. */
  cache?: { generation: number; resolution: Resolution };
}

/** Counts and problems, for diagnostics and the benchmark. */
export interface VaultIndexStats {
  readonly notes: number;
  readonly attachments: number;
  readonly links: number;
  /** Milliseconds the initial build took (wall clock). */
  readonly buildMs: number;
  /** Files or folders that could not be read during the build, with the reason. */
  readonly problems: ReadonlyArray<{ readonly uri: string; readonly message: string }>;
}

const DEFAULT_EXCLUDES = ['node_modules'];
const DEFAULT_MAX_WATCHED_FOLDERS = 4096;

/**
 * Notes, attachments and links of one workspace folder.
 *
 * `rootUri` is the folder as the index knows it (normally its real path); `aliasRoots` are other
 * URIs of the same folder (e.g. the path through a symbolic link) accepted by the update methods.
 */
export class VaultIndex implements FileCatalog, Disposable {
  private readonly notes = new Map<string, IndexedNote>(); // relPath -> note
  private readonly attachments = new Map<string, ResolvableFile>(); // relPath -> file
  private readonly namesLower = new Map<string, Set<ResolvableFile>>();
  private readonly slugs = new Map<string, Set<ResolvableFile>>();
  private readonly linksByName = new Map<string, Set<IndexedLink>>(); // targetNameKey -> links
  private readonly linksBySlug = new Map<string, Set<IndexedLink>>(); // slug of last segment -> links
  private generation = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private built: Promise<void> | undefined;
  private buildMs = 0;
  private problems: Array<{ uri: string; message: string }> = [];
  private readonly excludes: ReadonlySet<string>;
  private readonly aliasOrder: AliasOrder;
  private readonly parser: NoteParser;
  /**
   * Updates queued and not started yet, by relPath: a newer update of the same file takes their
   * place. `watched`: one came from the index's own watch of the folder (see {@link applyChange}).
   */
  private readonly waitingUpdates = new Map<string, { text: NoteText | undefined; watched: boolean; done: Promise<boolean> }>();
  /** The folders the index watches itself, by relPath (see {@link onFileChanged}). */
  private readonly folderWatches = new Map<string, Disposable>();
  /**
   * Entries those watches reported and no update was queued for yet, by `<folder URI>\n<name>`
   * (the folder itself: an empty name): a burst of events costs a set entry each until drained.
   */
  private readonly watchedWaiting = new Map<string, { folderUri: string; name: string | undefined }>();
  private drainingWatched = false;
  private watchLimitTold = false;
  private disposed = false;

  constructor(
    private readonly fs: WorkspaceFs,
    readonly rootUri: string,
    private readonly options: VaultIndexOptions = {},
    private readonly aliasRoots: readonly string[] = [],
  ) {
    this.excludes = new Set(options.excludeFolders ?? DEFAULT_EXCLUDES);
    this.aliasOrder = options.aliasOrder ?? 'target-first';
    this.parser = options.parser ?? inlineNoteParser;
  }

  /**
   * Build the index once (later calls return the same promise). Walks the folder with
   * `fs.findFiles` when available, else `fs.readDirectory` (symbolic links to files are followed,
   * symbolic links to folders are not: no cycles). Unreadable files are recorded in
   * {@link stats}`().problems`, told to {@link VaultIndexOptions.onSkip}, and skipped.
   * @throws LspError `file_not_found` when the root folder does not exist; `cancelled` when
   *   `signal` aborts (the index can be built again later).
   */
  build(signal?: AbortSignal): Promise<void> {
    if (!this.built) {
      const p = this.enqueue(() => this.doBuild(signal));
      this.built = p;
      p.catch(() => {
        if (this.built === p) this.built = undefined;
      });
    }
    return this.built;
  }

  private async doBuild(signal?: AbortSignal): Promise<void> {
    const t0 = performance.now();
    this.clear();
    let uris: string[];
    try {
      uris = this.fs.findFiles ? [...(await this.fs.findFiles(this.rootUri))] : await this.walk(signal);
    } catch (e) {
      if (isNotFoundError(e)) throw new LspError('file_not_found', `workspace folder not found: ${this.rootUri}`, { uri: this.rootUri }, { cause: e });
      throw e;
    }
    await this.addFiles(uris, signal);
    this.generation++;
    this.buildMs = performance.now() - t0;
  }

  /**
   * Index files found by a walk or a search (URIs; those outside the folder or in excluded folders
   * are left out): attachments first, then notes, read and parsed `readConcurrency` at a time. An
   * unreadable note is skipped and reported. The loops yield every few ms.
   * @throws LspError `cancelled` when `signal` aborts.
   */
  private async addFiles(uris: readonly string[], signal?: AbortSignal): Promise<void> {
    const files: Array<{ uri: string; relPath: string }> = [];
    const slice = new TimeSlice(); // a vault of many files: the loops yield every few ms
    for (const uri of uris) {
      await slice.pause(signal);
      const relPath = this.relPathOf(uri);
      if (relPath === undefined || this.isExcluded(relPath)) continue;
      files.push({ uri: joinUri(this.rootUri, ...relPath.split('/')), relPath });
    }
    const noteFiles = files.filter((f) => noteExtensionOf(f.relPath) !== undefined);
    for (const f of files) {
      if (noteExtensionOf(f.relPath) !== undefined || this.attachments.has(f.relPath)) continue;
      await slice.pause(signal);
      this.addAttachment(makeFile(f.uri, f.relPath));
    }
    const concurrency = Math.max(1, this.options.readConcurrency ?? 32);
    let next = 0;
    const worker = async () => {
      while (next < noteFiles.length) {
        throwIfAborted(signal, 'wiki-link index build');
        const f = noteFiles[next++]!;
        try {
          this.putNote(await this.readNote(f.uri, f.relPath));
        } catch (e) {
          this.skip(f.uri, e);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, noteFiles.length) }, worker));
  }

  /**
   * Every file under `fromUri` (default: the root), as URIs; `fromRel` is its path relative to the
   * root. `watch`: which of the folders walked the index watches itself, each before it is read
   * (`inside`: all but `fromUri`).
   */
  private async walk(signal?: AbortSignal, fromUri = this.rootUri, fromRel = '', watch: 'none' | 'inside' | 'all' = 'none'): Promise<string[]> {
    const out: string[] = [];
    const slice = new TimeSlice();
    const visit = async (dirUri: string, rel: string, isRoot: boolean): Promise<void> => {
      throwIfAborted(signal, 'wiki-link index build');
      if (watch === 'all' || (watch === 'inside' && !isRoot)) this.watchFolder(dirUri, rel);
      let entries: ReadonlyArray<readonly [string, number]>;
      try {
        entries = await this.fs.readDirectory(dirUri);
      } catch (e) {
        if (isRoot) throw e;
        this.problems.push({ uri: dirUri, message: errorMessage(e) });
        return;
      }
      const subdirs: Array<Promise<void>> = [];
      for (const [name, type] of entries) {
        await slice.pause(signal);
        const childRel = rel ? `${rel}/${name}` : name;
        // A FIFO, device or socket named like a note is listed too: reading it is refused (the
        // reader never blocks), and that refusal is what reports it.
        if (type & FileType.File || (!(type & FileType.Directory) && noteExtensionOf(name) !== undefined)) out.push(joinUri(dirUri, name));
        else if (type & FileType.Directory && !(type & FileType.SymbolicLink) && !this.isExcludedName(name)) {
          subdirs.push(visit(joinUri(dirUri, name), childRel, false));
        }
      }
      await Promise.all(subdirs);
    };
    await visit(fromUri, fromRel, true);
    return out;
  }

  /**
   * Re-read (or take `text` of) a created or changed file and update the index; a file that no
   * longer exists is removed. URIs outside the folder, in excluded folders, or under a folder
   * whose name starts with `.` are ignored. Non-markdown files are tracked as attachments.
   * A folder reported created is walked, and with `fs.watchFolder` every folder inside it is
   * watched by the index itself from then on (before it is read, so nothing written meanwhile is
   * missed): a file watcher that saw the folder appear may not watch the folders already in it
   * (see `./folderWatch.ts`). Those watches end when their folder is deleted or the index disposed.
   * Serialised with the build and other updates; resolves when applied. An update of a file
   * that waits behind others is replaced by a newer update of the same file (both resolve when
   * the newer one is applied): a burst of edits or events parses the file once.
   * @param text the document's current text (e.g. an unsaved editor buffer), or a function that
   *   gives it, called once when the update is applied (a burst of edits to a big document copies
   *   its text once, not once per edit); read from `fs` when omitted.
   * @returns `true` when the URI belongs to this index.
   */
  onFileChanged(uri: string, text?: NoteText): Promise<boolean> {
    return this.update(uri, text, false);
  }

  /** Queues the update of `uri`, or joins the one already waiting for the same file. */
  private update(uri: string, text: NoteText | undefined, watched: boolean): Promise<boolean> {
    const key = this.relPathOf(uri);
    if (key === undefined) return this.enqueue(async () => false);
    const waiting = this.waitingUpdates.get(key);
    if (waiting) {
      // An event of the index's own watch carries no text: an editor's text waiting stays.
      if (!watched) waiting.text = text;
      waiting.watched ||= watched;
      return waiting.done;
    }
    const entry = { text, watched, done: Promise.resolve(false) };
    this.waitingUpdates.set(key, entry);
    entry.done = this.enqueue(async () => {
      if (this.waitingUpdates.get(key) === entry) this.waitingUpdates.delete(key);
      return this.applyChange(uri, typeof entry.text === 'function' ? entry.text() : entry.text, entry.watched);
    });
    return entry.done;
  }

  /**
   * @param watched the entry was reported by the index's own watch of its folder, which says only
   *   that something happened to it: it is looked at (created, changed, deleted, a file or a folder).
   */
  private async applyChange(uri: string, text: NoteSource | undefined, watched: boolean): Promise<boolean> {
    const relPath = this.relPathOf(uri);
    if (relPath === undefined || this.isExcluded(relPath)) return false;
    const canonical = joinUri(this.rootUri, ...relPath.split('/'));
    if (noteExtensionOf(relPath) === undefined) {
      let folder: boolean;
      if (watched) {
        const type = await this.typeOf(canonical);
        if (type === undefined) {
          this.removePrefix(relPath);
          return true;
        }
        folder = isRealFolder(type);
      } else {
        // A watcher can report a created folder without its files (see common/createdFolder.ts).
        folder = mayBeFolderLoosely(relPath) && (await this.isFolder(canonical));
      }
      if (folder) {
        await this.addFolder(canonical, relPath, watched);
        return true;
      }
      if (!this.attachments.has(relPath)) {
        this.addAttachment(makeFile(canonical, relPath));
        this.generation++;
      }
      return true;
    }
    let note: IndexedNote;
    try {
      note = text === undefined ? await this.readNote(canonical, relPath) : await this.makeNote(canonical, relPath, text);
    } catch (e) {
      // A folder named like a note (`garden.md`, moved in) is walked as the build walks it.
      if (text === undefined && (await this.isFolder(canonical))) {
        const stale = this.notes.get(relPath); // a note file it replaced
        if (stale) this.removeNote(stale);
        await this.addFolder(canonical, relPath, watched);
        return true;
      }
      // Gone, or no longer readable (turned into a FIFO, a link elsewhere…): no stale note stays.
      if (!isNotFoundError(e)) this.skip(canonical, e);
      this.removePrefix(relPath);
      return true;
    }
    const isNew = !this.notes.has(relPath);
    this.putNote(note);
    if (isNew) this.generation++;
    return true;
  }

  /** True when `uri` is a folder (not a symbolic link to one: the walk does not follow those either). */
  private async isFolder(uri: string): Promise<boolean> {
    try {
      if (this.fs.stat) return isRealFolder((await this.fs.stat(uri)).type);
      await this.fs.readDirectory(uri);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * The {@link FileType} bits of `uri`, or undefined when it does not exist. Without `fs.stat`,
   * taken for a file (a note is then read, which tells; another entry is kept as an attachment).
   */
  private async typeOf(uri: string): Promise<number | undefined> {
    if (!this.fs.stat) return FileType.File;
    try {
      return (await this.fs.stat(uri)).type;
    } catch (e) {
      if (isNotFoundError(e)) return undefined;
      return FileType.Unknown;
    }
  }

  /**
   * Index every note and attachment under a created folder. A file watcher may report only the
   * folder (one made and filled faster than the watch on it was set up, or moved in from outside
   * the workspace), so the folder's contents are read here rather than waited for. The folders
   * inside it are watched by the index itself, and the folder too when `watchSelf` (it was
   * reported by the index's own watch: nothing else watches it).
   */
  private async addFolder(uri: string, relPath: string, watchSelf: boolean): Promise<void> {
    if (relPath.split('/').some((name) => this.isExcludedName(name))) return;
    let files: string[];
    try {
      files = await this.walk(undefined, uri, relPath, watchSelf ? 'all' : 'inside');
    } catch (e) {
      if (!isNotFoundError(e)) this.skip(uri, e); // gone again before it was read: its delete event follows
      return;
    }
    await this.addFiles(files);
    this.generation++;
  }

  /**
   * Remove a deleted file, or every file under a deleted folder.
   * @returns `true` when the URI belongs to this index.
   */
  onFileDeleted(uri: string): Promise<boolean> {
    return this.enqueue(async () => {
      const relPath = this.relPathOf(uri);
      if (relPath === undefined) return false;
      this.removePrefix(relPath);
      return true;
    });
  }

  /** Wait until the build and every update queued so far are applied. */
  async settled(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  /** The workspace-relative path of `uri` (decoded), or `undefined` when outside this folder. */
  relPathOf(uri: string): string | undefined {
    for (const root of [this.rootUri, ...this.aliasRoots]) {
      const rel = relativePathOf(root, uri);
      if (rel !== undefined) return rel;
    }
    return undefined;
  }

  /** The note at a workspace-relative path, if indexed. */
  note(relPath: string): IndexedNote | undefined {
    return this.notes.get(relPath);
  }

  /** Every indexed note, in no particular order. */
  allNotes(): IterableIterator<IndexedNote> {
    return this.notes.values();
  }

  /** Make a note object for a document of this folder that is not in the index (e.g. in an excluded folder) without adding it. */
  transientNote(uri: string, relPath: string, text: NoteSource): Promise<IndexedNote> {
    return this.makeNote(uri, relPath, text);
  }

  /** Resolve a link (cached until the set of files changes). Same-note links (`[[#Heading]]`) resolve to their source. */
  resolve(l: IndexedLink): Resolution {
    if (l.cache && l.cache.generation === this.generation) return l.cache.resolution;
    let resolution: Resolution;
    if (l.link.target === '') {
      resolution = { kind: 'resolved', file: l.source, candidates: [l.source], ambiguous: false, fuzzy: false, via: 'path' };
    } else {
      resolution = resolveTarget(l.link.target, l.source.dir, this);
    }
    l.cache = { generation: this.generation, resolution };
    return resolution;
  }

  /**
   * Every indexed link that resolves to `file` (by relPath), in no particular order. Only links
   * that resolve to the file count: no substring matches (`[[target-old]]` is not `[[target]]`).
   */
  linksTo(file: ResolvableFile): IndexedLink[] {
    const candidates = new Set<IndexedLink>();
    const add = (set: Set<IndexedLink> | undefined) => set?.forEach((l) => candidates.add(l));
    add(this.linksByName.get(file.name.toLowerCase()));
    if (file.kind === 'note') {
      add(this.linksBySlug.get(slugify(file.name)));
      if (/^(index|readme)$/i.test(file.name) && file.dir) add(this.linksByName.get(file.dir.slice(file.dir.lastIndexOf('/') + 1).toLowerCase()));
      const self = this.notes.get(file.relPath);
      self?.links.forEach((l) => {
        if (l.link.target === '') candidates.add(l);
      });
    }
    const out: IndexedLink[] = [];
    for (const l of candidates) {
      const r = this.resolve(l);
      if (r.kind === 'resolved' && r.file.relPath === file.relPath) out.push(l);
    }
    return out;
  }

  /** Links whose target is unresolved and has the same name key as `l`'s (for references on a dangling link). */
  unresolvedLinksLike(l: IndexedLink): IndexedLink[] {
    const key = targetNameKey(l.link.target);
    const wanted = l.link.target.trim().toLowerCase();
    const out: IndexedLink[] = [];
    for (const other of this.linksByName.get(key) ?? []) {
      if (other.link.target.trim().toLowerCase() === wanted && this.resolve(other).kind === 'unresolved') out.push(other);
    }
    return out;
  }

  /** Every indexed link (for tests and diagnostics). */
  *allLinks(): IterableIterator<IndexedLink> {
    for (const n of this.notes.values()) yield* n.links;
  }

  /** Counts, build time and problems. */
  stats(): VaultIndexStats {
    let links = 0;
    for (const n of this.notes.values()) links += n.links.length;
    return { notes: this.notes.size, attachments: this.attachments.size, links, buildMs: this.buildMs, problems: [...this.problems] };
  }

  // FileCatalog
  byName(nameLower: string): Iterable<ResolvableFile> {
    return this.namesLower.get(nameLower) ?? [];
  }

  bySlug(slug: string): Iterable<ResolvableFile> {
    return this.slugs.get(slug) ?? [];
  }

  /** How many folders the index watches itself now (see {@link onFileChanged}). */
  get watchedFolders(): number {
    return this.folderWatches.size;
  }

  /** The URIs of the folders the index watches itself now (see {@link onFileChanged}). */
  watchedFolderUris(): string[] {
    return [...this.folderWatches.keys()].map((relPath) => joinUri(this.rootUri, ...relPath.split('/')));
  }

  /**
   * Watches the folder `uri` itself from now on, as if one of its own watches had reported it: an
   * index that replaces another takes over the folders only the other one watched. The folder is
   * walked (its notes read again) and the folders inside it are watched too.
   * @returns `true` when the URI belongs to this index.
   */
  watchFolderAgain(uri: string): Promise<boolean> {
    return this.update(uri, undefined, true);
  }

  /** Stops the index's own folder watches and starts no new ones (updates still apply). Idempotent. */
  dispose(): void {
    this.disposed = true;
    for (const watch of this.folderWatches.values()) watch.dispose();
    this.folderWatches.clear();
    this.watchedWaiting.clear();
  }

  // ---- internals

  /** Watches the folder `uri` (at `relPath`) for {@link update}s, unless it is watched already or the limit is reached. */
  private watchFolder(uri: string, relPath: string): void {
    if (!this.fs.watchFolder || this.disposed || this.folderWatches.has(relPath)) return;
    const max = this.options.maxWatchedFolders ?? DEFAULT_MAX_WATCHED_FOLDERS;
    if (this.folderWatches.size >= max) {
      if (!this.watchLimitTold) this.options.onSkip?.(uri, `not watched: the index already watches ${max} folders made inside created folders; notes written there later are indexed when they are opened or the window reloads`);
      this.watchLimitTold = true;
      return;
    }
    let watch: Disposable | undefined;
    try {
      watch = this.fs.watchFolder(uri, (name) => this.onWatchedEntry(uri, relPath, name));
    } catch (e) {
      this.options.onSkip?.(uri, `not watched: ${errorMessage(e)}; notes written there later are indexed when they are opened or the window reloads`);
    }
    if (watch) this.folderWatches.set(relPath, watch);
  }

  /**
   * Records an entry a watch reported (constant time: a system may report 20 000 entries in one
   * go) and drains the records in slices that yield. The folder's own event (`name` undefined: it
   * may be deleted, moved away, or made again by then) ends its watch at once: the update looks
   * at the path and watches the folder found there, if any, anew.
   */
  private onWatchedEntry(folderUri: string, folderRelPath: string, name: string | undefined): void {
    if (this.disposed) return;
    if (name === undefined) {
      this.folderWatches.get(folderRelPath)?.dispose();
      this.folderWatches.delete(folderRelPath);
    }
    this.watchedWaiting.set(`${folderUri}\n${name ?? ''}`, { folderUri, name });
    if (this.drainingWatched) return;
    this.drainingWatched = true;
    setImmediate(() => void this.drainWatched());
  }

  /** Queues an {@link update} per recorded entry (entries recorded meanwhile too), yielding every few ms. */
  private async drainWatched(): Promise<void> {
    const slice = new TimeSlice();
    try {
      for (const [key, { folderUri, name }] of this.watchedWaiting) {
        this.watchedWaiting.delete(key);
        if (this.disposed) return;
        void this.update(name === undefined ? folderUri : joinUri(folderUri, name), undefined, true).catch(() => false);
        await slice.pause();
      }
    } finally {
      this.drainingWatched = false;
    }
  }

  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op, op);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private isExcludedName(name: string): boolean {
    return name.startsWith('.') || this.excludes.has(name);
  }

  private isExcluded(relPath: string): boolean {
    const segs = relPath.split('/');
    for (let i = 0; i < segs.length - 1; i++) if (this.isExcludedName(segs[i]!)) return true;
    return false;
  }

  /** Record a note that was not read, and tell {@link VaultIndexOptions.onSkip}. */
  private skip(uri: string, e: unknown): void {
    const message = errorMessage(e);
    this.problems = this.problems.filter((p) => p.uri !== uri); // one entry per file, the latest
    this.problems.push({ uri, message });
    this.options.onSkip?.(uri, message);
  }

  private clear(): void {
    this.notes.clear();
    this.attachments.clear();
    this.namesLower.clear();
    this.slugs.clear();
    this.linksByName.clear();
    this.linksBySlug.clear();
    this.problems = [];
  }

  /**
   * The note at `uri`, read from its file: by the parser, where it runs, when the file system
   * gives a file another thread can read (`fs.localFile`, `NoteParser.parseFile`: a vault's reads
   * stay off this thread), else read here with `fs.readFile`.
   * @throws the read's error (Node's `ENOENT` for a missing file, a refusal of the navigation read).
   */
  private async readNote(uri: string, relPath: string): Promise<IndexedNote> {
    const file = this.parser.parseFile && (await this.fs.localFile?.(uri));
    return this.makeNote(uri, relPath, file || (await this.fs.readFile(uri)));
  }

  /**
   * The note of `source` (its text or UTF-8 bytes, or its file for `NoteParser.parseFile`). When
   * the parser fails (a worker that crashed or ran out of time), the note still exists (links to
   * it resolve) with nothing of it indexed, marked partial with reason `'parser-failed'`, and the
   * failure is reported like a skipped note.
   * @throws NoteReadError when `source` is a file that could not be read.
   */
  private async makeNote(uri: string, relPath: string, source: NoteSource | NoteFile): Promise<IndexedNote> {
    const file = makeFile(uri, relPath);
    const options = { aliasOrder: this.aliasOrder, limits: this.options.noteLimits ?? NOTE_LIMITS };
    let parsed: ParsedNote;
    try {
      parsed = await (typeof source === 'string' || source instanceof Uint8Array ? this.parser.parse(source, options) : this.parser.parseFile!(source, options));
    } catch (e) {
      if (e instanceof NoteReadError) throw e;
      this.skip(uri, e);
      parsed = { lineCount: 0, links: [], headings: [], blocks: [], title: undefined, frontMatter: undefined, aliases: [], ignored: [], partial: { indexedLines: 0, reason: 'parser-failed' } };
    }
    const links: IndexedLink[] = [];
    const note: IndexedNote = { ...file, kind: 'note', parsed, links };
    for (const link of parsed.links) links.push({ link, source: note });
    return note;
  }

  private putNote(note: IndexedNote): void {
    const old = this.notes.get(note.relPath);
    if (old) this.removeNote(old);
    this.notes.set(note.relPath, note);
    addTo(this.namesLower, note.name.toLowerCase(), note);
    addTo(this.slugs, slugify(note.name), note);
    for (const l of note.links) {
      if (l.link.target === '') continue;
      const key = targetNameKey(l.link.target);
      addTo(this.linksByName, key, l);
      addTo(this.linksBySlug, slugify(key), l);
    }
  }

  private removeNote(note: IndexedNote): void {
    this.notes.delete(note.relPath);
    removeFrom(this.namesLower, note.name.toLowerCase(), note);
    removeFrom(this.slugs, slugify(note.name), note);
    for (const l of note.links) {
      if (l.link.target === '') continue;
      const key = targetNameKey(l.link.target);
      removeFrom(this.linksByName, key, l);
      removeFrom(this.linksBySlug, slugify(key), l);
    }
  }

  private addAttachment(file: ResolvableFile): void {
    this.attachments.set(file.relPath, file);
    addTo(this.namesLower, file.name.toLowerCase(), file);
  }

  private removePrefix(relPath: string): void {
    for (const [p, watch] of [...this.folderWatches]) {
      if (p === relPath || p.startsWith(relPath + '/')) {
        watch.dispose();
        this.folderWatches.delete(p);
      }
    }
    let changed = false;
    for (const [p, note] of [...this.notes]) {
      if (p === relPath || p.startsWith(relPath + '/')) {
        this.removeNote(note);
        changed = true;
      }
    }
    for (const [p, file] of [...this.attachments]) {
      if (p === relPath || p.startsWith(relPath + '/')) {
        this.attachments.delete(p);
        removeFrom(this.namesLower, file.name.toLowerCase(), file);
        changed = true;
      }
    }
    if (changed) this.generation++;
  }
}

/** A folder, not a symbolic link to one (the walk does not follow those). */
function isRealFolder(type: number): boolean {
  return (type & FileType.Directory) !== 0 && (type & FileType.SymbolicLink) === 0;
}

function addTo<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(v);
}

function removeFrom<K, V>(m: Map<K, Set<V>>, k: K, v: V): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(v);
  if (s.size === 0) m.delete(k);
}

