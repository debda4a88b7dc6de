/**
 * {@link WorkspaceFs} on Node's `fs` for `file:` URIs (unit tests, scripts, the benchmark). Read
 * only; file text is read through the navigation read (`../fileRead.ts`). The
 * `vscode.workspace.fs` implementation lives in `src/vscode`.
 */

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { realFolders } from '../containment';
import { realUri } from '../realUri';
import { fileUriToPath } from '../uri';
import type { Disposable } from '../../common/disposable';
import { watchFolderEntries } from './folderWatch';
import { NoteFile, readNoteBytes } from './noteParser';
import { FileStat, FileType, WorkspaceFs } from './workspaceFs';

/** Options of {@link NodeWorkspaceFs}. */
export interface NodeWorkspaceFsOptions {
  /**
   * Absolute paths of the workspace folders: when given, {@link NodeWorkspaceFs.readFile} refuses
   * files whose real path lies outside all of them (a note linked to a file elsewhere).
   */
  readonly workspaceFolders?: readonly string[];
}

/**
 * A {@link WorkspaceFs} over `node:fs/promises`. Errors keep Node's `code` (`ENOENT` for a missing
 * file). Symbolic links are reported as `File|SymbolicLink` or `Directory|SymbolicLink`; a
 * dangling link, or one to a FIFO, device or socket, as `Unknown|SymbolicLink`; a FIFO, device or
 * socket itself as `Unknown`.
 */
export class NodeWorkspaceFs implements WorkspaceFs {
  private folders: Promise<string[]> | undefined;

  constructor(private readonly options: NodeWorkspaceFsOptions = {}) {}

  /**
   * The file's bytes, read with {@link readNavigationFile}: regular files only, up to its cap,
   * never blocking; with `workspaceFolders`, only inside them.
   * @throws NavigationReadError (`not_regular_file`, `pseudo_file`, `too_large`,
   *   `outside_workspace`, …), Node's `ENOENT` for a missing file.
   */
  async readFile(uri: string): Promise<Uint8Array> {
    return readNoteBytes(await this.localFile(uri));
  }

  /** The file itself, inside the real paths of `workspaceFolders` when given (as {@link readFile} reads it). */
  async localFile(uri: string): Promise<NoteFile> {
    const folders = this.options.workspaceFolders;
    if (folders) this.folders ??= realFolders(folders);
    return { path: fileUriToPath(uri), insideFolders: await this.folders };
  }

  async readDirectory(uri: string): Promise<ReadonlyArray<readonly [string, number]>> {
    const dir = fileUriToPath(uri);
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    const out: Array<readonly [string, number]> = [];
    for (const d of entries) {
      if (d.isFile()) out.push([d.name, FileType.File]);
      else if (d.isDirectory()) out.push([d.name, FileType.Directory]);
      else if (d.isSymbolicLink()) {
        let type: number = FileType.Unknown;
        try {
          const st = await fsp.stat(path.join(dir, d.name));
          type = st.isFile() ? FileType.File : st.isDirectory() ? FileType.Directory : FileType.Unknown;
        } catch {
          // dangling link
        }
        out.push([d.name, type | FileType.SymbolicLink]);
      } else {
        out.push([d.name, FileType.Unknown]); // FIFO, device, socket: listed like vscode.workspace.fs does, never read
      }
    }
    return out;
  }

  async stat(uri: string): Promise<FileStat> {
    const p = fileUriToPath(uri);
    const [st, lst] = await Promise.all([fsp.stat(p), fsp.lstat(p)]);
    const type =
      (st.isFile() ? FileType.File : st.isDirectory() ? FileType.Directory : FileType.Unknown) |
      (lst.isSymbolicLink() ? FileType.SymbolicLink : 0);
    return { type, mtime: st.mtimeMs, size: st.size };
  }

  async realUri(uri: string): Promise<string> {
    return realUri(uri);
  }

  /** Watches the folder's entries with `fs.watch` ({@link watchFolderEntries}). */
  watchFolder(uri: string, onEntry: (name: string | undefined) => void): Disposable | undefined {
    return watchFolderEntries(fileUriToPath(uri), onEntry);
  }
}
