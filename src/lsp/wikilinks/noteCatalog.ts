/**
 * The tables of one folder's wiki-link index (plain Node, no `vscode` import): its notes and
 * attachments by path, by lower-cased name and by slug; its links by the name and the slug of
 * their target; and each link's resolution, cached until the set of files changes. It answers
 * from memory and reads nothing: `./vaultIndex.ts` fills it from the folder and keeps it current.
 */

import type { ParsedNote, WikiLink } from './parsedNote';
import { FileCatalog, ResolvableFile, Resolution, resolveTarget, slugify, targetNameKey } from './resolve';

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
  /** @internal resolution cache, valid while `generation` equals the catalog's. */
  cache?: { generation: number; resolution: Resolution };
}

/** The note object of `parsed` at `file` (not added to any catalog): its links point back at it. */
export function indexedNote(file: ResolvableFile, parsed: ParsedNote): IndexedNote {
  const links: IndexedLink[] = [];
  const note: IndexedNote = { ...file, kind: 'note', parsed, links };
  for (const link of parsed.links) links.push({ link, source: note });
  return note;
}

/**
 * Notes, attachments and links of one folder, by workspace-relative path (decoded, `/`-separated).
 * A cached resolution stays valid until {@link filesChanged} (a file added or removed) or
 * {@link removeUnder} that removed something: replacing a note keeps the set of files as it was.
 */
export class NoteCatalog implements FileCatalog {
  private readonly notes = new Map<string, IndexedNote>(); // relPath -> note
  private readonly attachments = new Map<string, ResolvableFile>(); // relPath -> file
  private readonly namesLower = new Map<string, Set<ResolvableFile>>();
  private readonly slugs = new Map<string, Set<ResolvableFile>>();
  private readonly linksByName = new Map<string, Set<IndexedLink>>(); // targetNameKey -> links
  private readonly linksBySlug = new Map<string, Set<IndexedLink>>(); // slug of last segment -> links
  private generation = 0;

  /** The set of files changed: every cached resolution is stale. */
  filesChanged(): void {
    this.generation++;
  }

  /** The note at a workspace-relative path, if indexed. */
  note(relPath: string): IndexedNote | undefined {
    return this.notes.get(relPath);
  }

  /** True when an attachment (a file that is not a note) is at `relPath`. */
  hasAttachment(relPath: string): boolean {
    return this.attachments.has(relPath);
  }

  /** Every note, in no particular order. */
  allNotes(): IterableIterator<IndexedNote> {
    return this.notes.values();
  }

  /** Adds `note`, or replaces the note at its path (its links with it). */
  putNote(note: IndexedNote): void {
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

  /** Removes `note` and its links (the set of files changes: the caller says so with {@link filesChanged}). */
  removeNote(note: IndexedNote): void {
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

  /** Adds an attachment (a file that is not a note). */
  addAttachment(file: ResolvableFile): void {
    this.attachments.set(file.relPath, file);
    addTo(this.namesLower, file.name.toLowerCase(), file);
  }

  /** Removes the file at `relPath`, or every file under the folder at `relPath`; a change of the set of files when one was removed. */
  removeUnder(relPath: string): void {
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

  /** Empties every table (cached resolutions are not touched: the caller says the set of files changed when it is filled again). */
  clear(): void {
    this.notes.clear();
    this.attachments.clear();
    this.namesLower.clear();
    this.slugs.clear();
    this.linksByName.clear();
    this.linksBySlug.clear();
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
   * Every link that resolves to `file` (by relPath), in no particular order. Only links that
   * resolve to the file count: no substring matches (`[[target-old]]` is not `[[target]]`).
   */
  linksTo(file: ResolvableFile): IndexedLink[] {
    const candidates = new Set<IndexedLink>();
    const add = (set: Set<IndexedLink> | undefined) => set?.forEach((l) => candidates.add(l));
    add(this.linksByName.get(file.name.toLowerCase()));
    if (file.kind === 'note') {
      add(this.linksBySlug.get(slugify(file.name)));
      if (/^(index|readme)$/i.test(file.name) && file.dir)
        add(this.linksByName.get(file.dir.slice(file.dir.lastIndexOf('/') + 1).toLowerCase()));
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

  /** Every link. */
  *allLinks(): IterableIterator<IndexedLink> {
    for (const n of this.notes.values()) yield* n.links;
  }

  /** How many notes, attachments and links. */
  counts(): { notes: number; attachments: number; links: number } {
    let links = 0;
    for (const n of this.notes.values()) links += n.links.length;
    return { notes: this.notes.size, attachments: this.attachments.size, links };
  }

  byName(nameLower: string): Iterable<ResolvableFile> {
    return this.namesLower.get(nameLower) ?? [];
  }

  bySlug(slug: string): Iterable<ResolvableFile> {
    return this.slugs.get(slug) ?? [];
  }
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
