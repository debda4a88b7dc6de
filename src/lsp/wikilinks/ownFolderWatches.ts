/**
 * The folders a wiki-link index watches itself (plain Node, no `vscode` import): those inside a
 * folder reported created, which the editor's file watcher may never report on (see
 * `./folderWatch.ts`). At most a given number of them; what they report is recorded in constant
 * time and handed on in slices that yield, so a burst of 20 000 entries does not hold the thread.
 */

import { errorMessage } from '../../common/errorMessage';
import type { Disposable } from '../../common/disposable';
import { joinUri } from '../uri';
import { TimeSlice } from '../timeSlice';
import type { WorkspaceFs } from './workspaceFs';

/** The index's own folder watches, by workspace-relative path. */
export class OwnFolderWatches implements Disposable {
  /** The folders watched, by relPath. */
  private readonly watches = new Map<string, Disposable>();
  /**
   * Entries the watches reported and not handed on yet, by `<folder URI>\n<name>` (the folder
   * itself: an empty name): a burst of events costs a set entry each until drained.
   */
  private readonly waiting = new Map<string, { folderUri: string; name: string | undefined }>();
  private draining = false;
  private limitTold = false;
  private disposed = false;

  /**
   * @param fs the file system whose `watchFolder` watches one folder's entries; without it nothing
   *   is watched.
   * @param max most folders watched at once; past it a folder is not watched, told once to `onSkip`.
   * @param onSkip told about a folder not watched (the limit, or the watch failed), with why.
   * @param onEntry handed the URI of each entry a watch reported (the folder's own URI when the
   *   folder itself may be gone), once per burst, after the watch that reported it returned.
   */
  constructor(
    private readonly fs: Pick<WorkspaceFs, 'watchFolder'>,
    private readonly max: number,
    private readonly onSkip: ((uri: string, message: string) => void) | undefined,
    private readonly onEntry: (uri: string) => void,
  ) {}

  /** Watches the folder `uri` (at `relPath`), unless it is watched already, the limit is reached or the watches are disposed. */
  watch(uri: string, relPath: string): void {
    if (!this.fs.watchFolder || this.disposed || this.watches.has(relPath)) return;
    if (this.watches.size >= this.max) {
      if (!this.limitTold)
        this.onSkip?.(
          uri,
          `not watched: the index already watches ${this.max} folders made inside created folders; notes written there later are indexed when they are opened or the window reloads`,
        );
      this.limitTold = true;
      return;
    }
    let watch: Disposable | undefined;
    try {
      watch = this.fs.watchFolder(uri, (name) => this.record(uri, relPath, name));
    } catch (e) {
      this.onSkip?.(
        uri,
        `not watched: ${errorMessage(e)}; notes written there later are indexed when they are opened or the window reloads`,
      );
    }
    if (watch) this.watches.set(relPath, watch);
  }

  /** Stops watching the folder at `relPath` and every folder under it. */
  stopUnder(relPath: string): void {
    for (const [p, watch] of [...this.watches]) {
      if (p === relPath || p.startsWith(relPath + '/')) {
        watch.dispose();
        this.watches.delete(p);
      }
    }
  }

  /** How many folders are watched now. */
  get size(): number {
    return this.watches.size;
  }

  /** The workspace-relative paths of the folders watched now. */
  relPaths(): string[] {
    return [...this.watches.keys()];
  }

  /** Stops every watch and starts no new one; entries not handed on yet are dropped. Idempotent. */
  dispose(): void {
    this.disposed = true;
    for (const watch of this.watches.values()) watch.dispose();
    this.watches.clear();
    this.waiting.clear();
  }

  /**
   * Records an entry a watch reported (constant time: a system may report 20 000 entries in one
   * go) and drains the records in slices that yield. The folder's own event (`name` undefined: it
   * may be deleted, moved away, or made again by then) ends its watch at once: the index looks at
   * the path and watches the folder found there, if any, anew.
   */
  private record(folderUri: string, folderRelPath: string, name: string | undefined): void {
    if (this.disposed) return;
    if (name === undefined) {
      this.watches.get(folderRelPath)?.dispose();
      this.watches.delete(folderRelPath);
    }
    this.waiting.set(`${folderUri}\n${name ?? ''}`, { folderUri, name });
    if (this.draining) return;
    this.draining = true;
    setImmediate(() => void this.drain());
  }

  /** Hands each recorded entry to `onEntry` (entries recorded meanwhile too), yielding every few ms. */
  private async drain(): Promise<void> {
    const slice = new TimeSlice();
    try {
      for (const [key, { folderUri, name }] of this.waiting) {
        this.waiting.delete(key);
        if (this.disposed) return;
        this.onEntry(name === undefined ? folderUri : joinUri(folderUri, name));
        await slice.pause();
      }
    } finally {
      this.draining = false;
    }
  }
}
