/**
 * The `md-links` index's file system in the extension: {@link WorkspaceFs} on
 * `vscode.workspace.fs` (works in remote and virtual workspaces), file text through the navigation
 * read, inside the workspace only.
 */
import * as vscode from 'vscode';
import { realUri } from '../../lsp/realUri';
import type { Disposable } from '../../common/disposable';
import { watchFolderEntries } from '../../lsp/wikilinks/folderWatch';
import type { NoteFile } from '../../lsp/wikilinks/noteParser';
import { FileStat, WorkspaceFs } from '../../lsp/wikilinks/workspaceFs';
import { readInsideWorkspace, workspaceFolderRealPaths } from './fileAccess';

/**
 * A {@link WorkspaceFs} on `vscode.workspace.fs`. URIs are strings parsed with `Uri.parse`.
 * `realUri` resolves symbolic links for `file:` URIs (`src/lsp/realUri.ts`: the extension runs
 * where the files are) and returns other URIs unchanged, formatted by `vscode.Uri`. Errors are
 * `vscode.FileSystemError`s (`code: 'FileNotFound'` for a missing file); `realUri` of a missing
 * file throws an Error with `code: 'ENOENT'`.
 */
export class VsCodeWorkspaceFs implements WorkspaceFs {
  /**
   * A note's bytes, read only inside the workspace with the navigation read (`./fileAccess.ts`):
   * FIFOs, devices, `/proc` files, files over the cap and files whose real path is outside every
   * workspace folder are refused (the index skips them and the extension logs why).
   */
  async readFile(uri: string): Promise<Uint8Array> {
    return readInsideWorkspace(vscode.Uri.parse(uri));
  }

  /** A `file:` note as its path, inside the workspace folders' real paths (what {@link readFile} enforces); other schemes: undefined. */
  async localFile(uri: string): Promise<NoteFile | undefined> {
    const path = fsPathOf(uri);
    return path === undefined ? undefined : { path, insideFolders: await workspaceFolderRealPaths() };
  }

  async readDirectory(uri: string): Promise<ReadonlyArray<readonly [string, number]>> {
    return vscode.workspace.fs.readDirectory(vscode.Uri.parse(uri));
  }

  async stat(uri: string): Promise<FileStat> {
    const s = await vscode.workspace.fs.stat(vscode.Uri.parse(uri));
    return { type: s.type, mtime: s.mtime, size: s.size };
  }

  async realUri(uri: string): Promise<string> {
    return vscodeRealUri(uri);
  }

  /**
   * Watches a `file:` folder's entries with Node's `fs.watch` (`src/lsp/wikilinks/folderWatch.ts`:
   * VS Code's own watcher misses the folders inside a created folder); other schemes are not
   * watched (undefined).
   */
  watchFolder(uri: string, onEntry: (name: string | undefined) => void): Disposable | undefined {
    const path = fsPathOf(uri);
    return path === undefined ? undefined : watchFolderEntries(path, onEntry);
  }
}

/** The file-system path of a `file:` URI; undefined for another scheme. */
function fsPathOf(uri: string): string | undefined {
  const parsed = vscode.Uri.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : undefined;
}

/**
 * Real-path URI of a `file:` URI (`src/lsp/realUri.ts`; `onError` as there), formatted by
 * `vscode.Uri`; any other URI only reformatted.
 */
export async function vscodeRealUri(uri: string, onError: 'throw' | 'keep' = 'throw'): Promise<string> {
  const u = vscode.Uri.parse(uri);
  return u.scheme === 'file' ? vscode.Uri.parse(await realUri(uri, onError)).toString() : u.toString();
}
