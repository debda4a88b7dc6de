/**
 * Which created entries a file-event handler asks whether they are folders. A file watcher can
 * report a folder without the files in it (one made and filled faster than its watch was set up,
 * or moved in), so a handler that cares looks inside a created folder. Asking the file system on
 * every event is too dear for a burst (10 000 `stat` calls queued behind the files of one write),
 * so only a name without a dot is asked about; a folder named like `v1.2` waits for its files' own
 * events.
 */

/** True when the last name of `path` (`/`-separated) has no dot: the entry may be a folder. */
export function mayBeFolder(path: string): boolean {
  return !path.slice(path.lastIndexOf('/') + 1).includes('.');
}
