/**
 * A folder's files as the wiki-link index sees them (plain Node, no `vscode` import): the walk
 * that lists them (symbolic links to files followed, symbolic links to folders not: no cycles; a
 * FIFO or device named like a note listed too), and what one entry is (a folder, a file, gone).
 */

import { throwIfAborted } from '../cancellation';
import { TimeSlice } from '../timeSlice';
import { joinUri } from '../uri';
import { noteExtensionOf } from './resolve';
import { FileType, isNotFoundError, WorkspaceFs } from './workspaceFs';

/** How {@link walkFolder} walks. */
export interface WalkOptions {
  /** Aborts the walk (`LspError` `cancelled`, checked at each folder and where the walk yields). */
  readonly signal?: AbortSignal;
  /** True for a folder name never walked into. */
  readonly skipFolder: (name: string) => boolean;
  /** Called with each folder walked (`isRoot`: the folder the walk starts at), before it is read. */
  readonly beforeRead?: (dirUri: string, relPath: string, isRoot: boolean) => void;
  /** Told about a folder below the start that could not be read (it is skipped). */
  readonly onUnreadable: (dirUri: string, error: unknown) => void;
}

/**
 * Every file under the folder `fromUri` (`fromRel`: its path relative to the workspace folder,
 * `''` for the root), as URIs, in no particular order. Folders are read concurrently; the loops
 * yield every few ms.
 * @throws the read's error when `fromUri` itself cannot be read; LspError `cancelled` when
 *   `options.signal` aborts.
 */
export async function walkFolder(
  fs: Pick<WorkspaceFs, 'readDirectory'>,
  fromUri: string,
  fromRel: string,
  options: WalkOptions,
): Promise<string[]> {
  const { signal } = options;
  const out: string[] = [];
  const slice = new TimeSlice();
  const visit = async (dirUri: string, rel: string, isRoot: boolean): Promise<void> => {
    throwIfAborted(signal, 'wiki-link index build');
    options.beforeRead?.(dirUri, rel, isRoot);
    let entries: ReadonlyArray<readonly [string, number]>;
    try {
      entries = await fs.readDirectory(dirUri);
    } catch (e) {
      if (isRoot) throw e;
      options.onUnreadable(dirUri, e);
      return;
    }
    const subdirs: Array<Promise<void>> = [];
    for (const [name, type] of entries) {
      await slice.pause(signal);
      const childRel = rel ? `${rel}/${name}` : name;
      // A FIFO, device or socket named like a note is listed too: reading it is refused (the
      // reader never blocks), and that refusal is what reports it.
      if (type & FileType.File || (!(type & FileType.Directory) && noteExtensionOf(name) !== undefined)) out.push(joinUri(dirUri, name));
      else if (type & FileType.Directory && !(type & FileType.SymbolicLink) && !options.skipFolder(name)) {
        subdirs.push(visit(joinUri(dirUri, name), childRel, false));
      }
    }
    await Promise.all(subdirs);
  };
  await visit(fromUri, fromRel, true);
  return out;
}

/** True when `uri` is a folder (not a symbolic link to one: the walk does not follow those either). */
export async function isFolderAt(fs: Pick<WorkspaceFs, 'readDirectory' | 'stat'>, uri: string): Promise<boolean> {
  try {
    if (fs.stat) return isRealFolder((await fs.stat(uri)).type);
    await fs.readDirectory(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * The {@link FileType} bits of `uri`, or undefined when it does not exist. Without `fs.stat`,
 * taken for a file (a note is then read, which tells; another entry is kept as an attachment).
 */
export async function fileTypeAt(fs: Pick<WorkspaceFs, 'stat'>, uri: string): Promise<number | undefined> {
  if (!fs.stat) return FileType.File;
  try {
    return (await fs.stat(uri)).type;
  } catch (e) {
    if (isNotFoundError(e)) return undefined;
    return FileType.Unknown;
  }
}

/** A folder, not a symbolic link to one (the walk does not follow those). */
export function isRealFolder(type: number): boolean {
  return (type & FileType.Directory) !== 0 && (type & FileType.SymbolicLink) === 0;
}
