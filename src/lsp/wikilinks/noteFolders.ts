/**
 * Which workspace folders hold notes (plain Node, no `vscode` import), for publishers that skip
 * folders without notes (the Problems panel's `md-links` diagnostics): a folder is looked up once
 * (e.g. a file search for one `.md` file, a ripgrep run in VS Code) and the answer kept; a note
 * created later in a folder looked up as empty is learned from the file event that reports it
 * ({@link NoteFolders.noteSeen}), not from a new search. Once a folder holds notes its wiki-link
 * index is what answers for it, so a refresh after each change costs no search at all.
 */
import { relativePathOf, uriKey } from '../uri';
import { noteExtensionOf } from './resolve';

/** Whether a folder holds a note: `lookup(folderUri)` resolves `true` when it finds at least one. */
export type NoteLookup = (folderUri: string) => Promise<boolean>;

/** The workspace folders known to hold notes (see the module comment). */
export class NoteFolders {
  /** Folder key -> its answer (a promise while the lookup runs). */
  private readonly known = new Map<string, Promise<boolean>>();
  private lookups = 0;

  constructor(private readonly lookup: NoteLookup) {}

  /**
   * Whether `folderUri` holds notes: the kept answer, else the answer of one lookup (kept; a
   * failed lookup counts as "no notes" and is not repeated until {@link noteSeen} or {@link forget}).
   */
  holdsNotes(folderUri: string): Promise<boolean> {
    const key = uriKey(folderUri);
    let answer = this.known.get(key);
    if (!answer) {
      this.lookups++;
      answer = this.lookup(folderUri).then(
        (found) => found,
        () => false,
      );
      this.known.set(key, answer);
    }
    return answer;
  }

  /**
   * A file was created or changed at `uri`: when it is a note (`.md`, `.markdown`), every folder
   * in `folderUris` that contains it holds notes from now on. Other files change nothing.
   */
  noteSeen(uri: string, folderUris: readonly string[]): void {
    const rel = (folder: string) => relativePathOf(folder, uri);
    for (const folder of folderUris) {
      const relPath = rel(folder);
      if (relPath !== undefined && noteExtensionOf(relPath) !== undefined) this.known.set(uriKey(folder), Promise.resolve(true));
    }
  }

  /** Drop the kept answer of `folderUri` (e.g. a folder removed from the workspace). */
  forget(folderUri: string): void {
    this.known.delete(uriKey(folderUri));
  }

  /** How many lookups ran so far (for tests and logs). */
  get lookupCount(): number {
    return this.lookups;
  }
}
