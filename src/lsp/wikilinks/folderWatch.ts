/**
 * A watch on one folder's own entries (not its subfolders' entries), on Node's `fs.watch`
 * (inotify on Linux), for the wiki-link index (plain Node, no `vscode` import).
 *
 * Why the index watches some folders itself: VS Code's file watcher (@parcel/watcher) starts
 * watching a folder it sees created, but not the folders already inside it. A folder made with
 * `mkdir -p a/b` (or by `git clone`, `unzip`, a program writing a new vault) is reported as `a`
 * alone, and nothing written into `a/b` afterwards is ever reported
 * (https://github.com/parcel-bundler/watcher/issues/97, microsoft/vscode#142694 and #227252).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Disposable } from '../../common/disposable';
import { isNotFoundError } from './workspaceFs';

/**
 * Starts watching the entries of the folder at `folderPath` (an absolute path). `onEntry` is
 * called with an entry's name (not a path) each time an entry is created, written, deleted or
 * renamed in the folder, as often as the system reports it (a file written in pieces is reported
 * once per piece): the caller looks at the entry to learn what happened. It is called with
 * `undefined` when the folder itself may have been deleted or moved away: the system names the
 * folder's own events with the folder's name (libuv, inotify's IN_DELETE_SELF and IN_MOVE_SELF),
 * so an entry named like the folder is reported both ways; a watch that fails later is reported
 * so too, after it stopped. The watch does not keep the Node process alive. Linux only: VS Code's
 * watcher is recursive elsewhere (FSEvents, ReadDirectoryChangesW) and misses nothing there.
 * @returns the watch (dispose to stop it), or undefined when there is nothing to watch (the folder
 *   is gone, or not on Linux).
 * @throws Node's error when the folder exists but cannot be watched (`ENOSPC`: the system's
 *   limit on inotify watches, `fs.inotify.max_user_watches`, is reached; `EACCES`).
 */
export function watchFolderEntries(folderPath: string, onEntry: (name: string | undefined) => void): Disposable | undefined {
  if (process.platform !== 'linux') return undefined;
  const ownName = path.basename(folderPath);
  let watcher: fs.FSWatcher;
  try {
    watcher = fs.watch(folderPath, { persistent: false }, (_event, name) => {
      // A name is always given on Linux; without one, what changed cannot be looked at.
      if (!name) return;
      const entry = name.toString();
      if (entry === ownName) onEntry(undefined);
      onEntry(entry);
    });
  } catch (e) {
    if (isNotFoundError(e)) return undefined;
    throw e;
  }
  watcher.on('error', () => {
    watcher.close();
    onEntry(undefined);
  });
  return { dispose: () => watcher.close() };
}
