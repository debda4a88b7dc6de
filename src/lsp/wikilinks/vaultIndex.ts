/**
 * The index of one workspace folder's notes and links (plain Node, no `vscode` import): built once
 * by walking the folder, then kept current by {@link VaultIndex.onFileChanged} and
 * {@link VaultIndex.onFileDeleted}, so queries never rescan. Reads go through a
 * {@link WorkspaceFs}; nothing is ever written. Its tables and link resolution are
 * `./noteCatalog.ts`; the folders it watches itself, `./ownFolderWatches.ts`.
 * One concept in one file: the index of one folder's notes, filled from the folder and kept current.
 */

import { throwIfAborted } from '../cancellation';
import { TimeSlice } from '../timeSlice';
import { LspError } from '../types';
import { joinUri, relativePathOf } from '../uri';
import { NoteFile, NoteParser, NoteReadError, NoteSource, inlineNoteParser } from './noteParser';
import { NOTE_LIMITS, NoteLimits } from './parse';
import type { AliasOrder, ParsedNote } from './parsedNote';
import { IndexedLink, indexedNote, IndexedNote, NoteCatalog } from './noteCatalog';
import { OwnFolderWatches } from './ownFolderWatches';
import { makeFile, noteExtensionOf, ResolvableFile, Resolution } from './resolve';
import { isNotFoundError, WorkspaceFs } from './workspaceFs';
import { fileTypeAt, isFolderAt, isRealFolder, walkFolder } from './folderWalk';
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
export class VaultIndex implements Disposable {
  private readonly catalog = new NoteCatalog();
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
  /** The folders the index watches itself (see {@link onFileChanged}). */
  private readonly watches: OwnFolderWatches;

  constructor(
    private readonly fs: WorkspaceFs,
    readonly rootUri: string,
    private readonly options: VaultIndexOptions = {},
    private readonly aliasRoots: readonly string[] = [],
  ) {
    this.excludes = new Set(options.excludeFolders ?? DEFAULT_EXCLUDES);
    this.aliasOrder = options.aliasOrder ?? 'target-first';
    this.parser = options.parser ?? inlineNoteParser;
    this.watches = new OwnFolderWatches(fs, options.maxWatchedFolders ?? DEFAULT_MAX_WATCHED_FOLDERS, options.onSkip, (uri) => {
      void this.update(uri, undefined, true).catch(() => false);
    });
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
      if (isNotFoundError(e))
        throw new LspError('file_not_found', `workspace folder not found: ${this.rootUri}`, { uri: this.rootUri }, { cause: e });
      throw e;
    }
    await this.addFiles(uris, signal);
    this.catalog.filesChanged();
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
      if (noteExtensionOf(f.relPath) !== undefined || this.catalog.hasAttachment(f.relPath)) continue;
      await slice.pause(signal);
      this.catalog.addAttachment(makeFile(f.uri, f.relPath));
    }
    const concurrency = Math.max(1, this.options.readConcurrency ?? 32);
    let next = 0;
    const worker = async () => {
      while (next < noteFiles.length) {
        throwIfAborted(signal, 'wiki-link index build');
        const f = noteFiles[next++]!;
        try {
          this.catalog.putNote(await this.readNote(f.uri, f.relPath));
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
  private walk(signal?: AbortSignal, fromUri = this.rootUri, fromRel = '', watch: 'none' | 'inside' | 'all' = 'none'): Promise<string[]> {
    return walkFolder(this.fs, fromUri, fromRel, {
      signal,
      skipFolder: (name) => this.isExcludedName(name),
      beforeRead: (dirUri, rel, isRoot) => {
        if (watch === 'all' || (watch === 'inside' && !isRoot)) this.watches.watch(dirUri, rel);
      },
      onUnreadable: (dirUri, e) => this.problems.push({ uri: dirUri, message: errorMessage(e) }),
    });
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
        const type = await fileTypeAt(this.fs, canonical);
        if (type === undefined) {
          this.removePrefix(relPath);
          return true;
        }
        folder = isRealFolder(type);
      } else {
        // A watcher can report a created folder without its files (see common/createdFolder.ts).
        folder = mayBeFolderLoosely(relPath) && (await isFolderAt(this.fs, canonical));
      }
      if (folder) {
        await this.addFolder(canonical, relPath, watched);
        return true;
      }
      if (!this.catalog.hasAttachment(relPath)) {
        this.catalog.addAttachment(makeFile(canonical, relPath));
        this.catalog.filesChanged();
      }
      return true;
    }
    let note: IndexedNote;
    try {
      note = text === undefined ? await this.readNote(canonical, relPath) : await this.makeNote(canonical, relPath, text);
    } catch (e) {
      // A folder named like a note (`garden.md`, moved in) is walked as the build walks it.
      if (text === undefined && (await isFolderAt(this.fs, canonical))) {
        const stale = this.catalog.note(relPath); // a note file it replaced
        if (stale) this.catalog.removeNote(stale);
        await this.addFolder(canonical, relPath, watched);
        return true;
      }
      // Gone, or no longer readable (turned into a FIFO, a link elsewhere…): no stale note stays.
      if (!isNotFoundError(e)) this.skip(canonical, e);
      this.removePrefix(relPath);
      return true;
    }
    const isNew = this.catalog.note(relPath) === undefined;
    this.catalog.putNote(note);
    if (isNew) this.catalog.filesChanged();
    return true;
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
    this.catalog.filesChanged();
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
    return this.catalog.note(relPath);
  }

  /** Every indexed note, in no particular order. */
  allNotes(): IterableIterator<IndexedNote> {
    return this.catalog.allNotes();
  }

  /** Make a note object for a document of this folder that is not in the index (e.g. in an excluded folder) without adding it. */
  transientNote(uri: string, relPath: string, text: NoteSource): Promise<IndexedNote> {
    return this.makeNote(uri, relPath, text);
  }

  /** Resolve a link (cached until the set of files changes). Same-note links (`[[#Heading]]`) resolve to their source. */
  resolve(l: IndexedLink): Resolution {
    return this.catalog.resolve(l);
  }

  /**
   * Every indexed link that resolves to `file` (by relPath), in no particular order. Only links
   * that resolve to the file count: no substring matches (`[[target-old]]` is not `[[target]]`).
   */
  linksTo(file: ResolvableFile): IndexedLink[] {
    return this.catalog.linksTo(file);
  }

  /** Links whose target is unresolved and has the same name key as `l`'s (for references on a dangling link). */
  unresolvedLinksLike(l: IndexedLink): IndexedLink[] {
    return this.catalog.unresolvedLinksLike(l);
  }

  /** Every indexed link (for tests and diagnostics). */
  allLinks(): IterableIterator<IndexedLink> {
    return this.catalog.allLinks();
  }

  /** Counts, build time and problems. */
  stats(): VaultIndexStats {
    return { ...this.catalog.counts(), buildMs: this.buildMs, problems: [...this.problems] };
  }

  /** How many folders the index watches itself now (see {@link onFileChanged}). */
  get watchedFolders(): number {
    return this.watches.size;
  }

  /** The URIs of the folders the index watches itself now (see {@link onFileChanged}). */
  watchedFolderUris(): string[] {
    return this.watches.relPaths().map((relPath) => joinUri(this.rootUri, ...relPath.split('/')));
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
    this.watches.dispose();
  }

  // ---- internals

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
    this.catalog.clear();
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
      parsed = await (typeof source === 'string' || source instanceof Uint8Array
        ? this.parser.parse(source, options)
        : this.parser.parseFile!(source, options));
    } catch (e) {
      if (e instanceof NoteReadError) throw e;
      this.skip(uri, e);
      parsed = {
        lineCount: 0,
        links: [],
        headings: [],
        blocks: [],
        title: undefined,
        frontMatter: undefined,
        aliases: [],
        ignored: [],
        partial: { indexedLines: 0, reason: 'parser-failed' },
      };
    }
    return indexedNote(file, parsed);
  }

  /** Forgets the file at `relPath`, or every file and watched folder under the folder at `relPath`. */
  private removePrefix(relPath: string): void {
    this.watches.stopUnder(relPath);
    this.catalog.removeUnder(relPath);
  }
}
