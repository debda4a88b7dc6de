/**
 * The small file-system interface the wiki-link provider reads through (plain Node, no `vscode`
 * import). In the extension it is backed by `vscode.workspace.fs` (so remote and virtual
 * workspaces work); in unit tests and scripts by Node's `fs` (`./nodeFs.ts`). Its shape mirrors
 * `vscode.workspace.fs` so the VS Code implementation is a thin adapter; URIs are strings.
 */
import type { Disposable } from '../../common/disposable';
import type { NoteFile } from './noteParser';

/**
 * File types, with the same numeric values as `vscode.FileType` (a bit set): a symbolic link to a
 * file is `File | SymbolicLink` (65), to a directory `Directory | SymbolicLink` (66).
 */
export const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 } as const;

/** What {@link WorkspaceFs.stat} returns: `type` is a {@link FileType} bit set, `mtime` in ms since the epoch, `size` in bytes. */
export interface FileStat {
  readonly type: number;
  readonly mtime: number;
  readonly size: number;
}

/**
 * Read-only access to workspace files. Nothing in the provider ever writes.
 *
 * Errors: a missing file or directory must reject with an error whose `code` is `'ENOENT'`
 * (Node) or `'FileNotFound'` (`vscode.FileSystemError`); see {@link isNotFoundError}.
 */
export interface WorkspaceFs {
  /** The file's bytes (decoded as UTF-8 by the caller; a leading BOM is dropped). */
  readFile(uri: string): Promise<Uint8Array>;
  /** Entries of a directory: `[name, FileType bit set]`, names not URIs, in any order. */
  readDirectory(uri: string): Promise<ReadonlyArray<readonly [string, number]>>;
  /** Optional: type, mtime and size of a file or directory. */
  stat?(uri: string): Promise<FileStat>;
  /**
   * Optional: the URI of the real path (symbolic links resolved), e.g. `fs.realpath` for `file:`
   * URIs. Without it, URIs are taken as given.
   */
  realUri?(uri: string): Promise<string>;
  /**
   * Optional: every file under `rootUri`, recursively, as URIs (an implementation may honour the
   * editor's exclude settings, e.g. `vscode.workspace.findFiles`). Without it the provider walks
   * {@link readDirectory} itself.
   */
  findFiles?(rootUri: string): Promise<readonly string[]>;
  /**
   * Optional: watches the entries of the folder `uri` (its own, not its subfolders'); `onEntry`
   * gets an entry's name each time one is created, written, deleted or renamed there, and
   * `undefined` when the folder itself may be gone (see `./folderWatch.ts`, also for why the
   * index watches some folders itself). Returns undefined when there is nothing to watch (the
   * folder is gone, or its file system needs no such watch); throws when the folder cannot be
   * watched (the system's limit on watches). Without it, the index learns only what it is told.
   */
  watchFolder?(uri: string, onEntry: (name: string | undefined) => void): Disposable | undefined;
  /**
   * Optional: the note at `uri` as a file that another thread of this process can read with the
   * same rules as {@link readFile} (the navigation read, inside the same folders), so a worker
   * parser reads it there (`NoteParser.parseFile`); undefined when only {@link readFile} can read it
   * (another scheme).
   */
  localFile?(uri: string): Promise<NoteFile | undefined>;
}

/** True when `e` says "no such file or directory" in Node's (`ENOENT`, `ENOTDIR`) or VS Code's (`FileNotFound`) words. */
export function isNotFoundError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'FileNotFound' || code === 'EntryNotFound';
}
