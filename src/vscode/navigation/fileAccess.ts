/**
 * Navigation's file reads in the extension: which files a read may reach and how (the rules live
 * in plain Node, `src/lsp/fileRead.ts` and `src/lsp/containment.ts`; this module applies them to
 * `vscode.Uri`s and the open workspace). Used by the `dsh_lsp` tool (its target and result
 * previews), the wiki-link index's `vscode.workspace.fs` adapter, and any tool that shows file text
 * to a model.
 *
 * - `file:` URIs are read with the navigation read (regular files only, at most
 *   `NAVIGATION_READ_CAP_BYTES`, never blocking). Containment is decided on real paths.
 * - Other schemes (remote or virtual workspaces) go through `vscode.workspace.fs`, after a `stat`
 *   that must say `File` and a size within the same cap; containment is
 *   `vscode.workspace.getWorkspaceFolder`.
 */
import { headText } from '../../lsp/headLines';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Containment, containmentOfReal, outsideMessage, realFolders } from '../../lsp/containment';
import { checkNavigationFile, NAVIGATION_READ_CAP_BYTES, NavigationReadError, readNavigationFile } from '../../lsp/fileRead';

/** How long the workspace folders' real paths are reused before being resolved again, in ms. */
const FOLDER_CACHE_MS = 2000;
let folderCache: { key: string; at: number; paths: Promise<string[]> } | undefined;

/**
 * Real paths (symbolic links resolved) of the open `file:` workspace folders, in folder order;
 * folders that do not exist are left out. Cached for a short while per set of folders.
 */
export function workspaceFolderRealPaths(): Promise<string[]> {
  const fsPaths = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const key = fsPaths.join('\u0000');
  const now = Date.now();
  if (!folderCache || folderCache.key !== key || now - folderCache.at > FOLDER_CACHE_MS)
    folderCache = { key, at: now, paths: realFolders(fsPaths) };
  return folderCache.paths;
}

/** Where a document lies, for the read rules: its containment and how to name it to a person. */
export interface UriPlace {
  readonly uri: vscode.Uri;
  /** Real path for `file:` URIs, the URI text otherwise. */
  readonly shown: string;
  readonly inside: boolean;
  /** Present for `file:` URIs. */
  readonly containment?: Containment;
}

/**
 * Where `uri` lies: inside when its real path (for `file:`) lies in a workspace folder's real
 * path, or (other schemes) when VS Code counts it in a workspace folder.
 * @throws Node's error (`ENOENT`, …) when a `file:` URI cannot be resolved.
 */
export async function placeOf(uri: vscode.Uri): Promise<UriPlace> {
  if (uri.scheme !== 'file') return { uri, shown: uri.toString(), inside: vscode.workspace.getWorkspaceFolder(uri) !== undefined };
  const { realPath } = await checkNavigationFile(uri.fsPath);
  const containment = containmentOfReal(realPath, await workspaceFolderRealPaths(), path.resolve(uri.fsPath));
  return { uri, shown: realPath, inside: containment.inside, containment };
}

/** The `outside_workspace` sentence for a place ("X (reached through Y) is outside the workspace (…)"). */
export async function describeOutside(place: UriPlace): Promise<string> {
  if (place.containment) return outsideMessage(place.containment, await workspaceFolderRealPaths());
  return `${place.shown} is outside the workspace folders`;
}

/**
 * The bytes of a document for navigation. `file:` URIs through the navigation read; the real path
 * read must equal `expectRealPath` when given (the file checked for containment is the file read).
 * Other schemes through `vscode.workspace.fs` after a `stat` (a `File`, at most the cap).
 * @throws NavigationReadError (`not_regular_file`, `pseudo_file`, `too_large`,
 *   `changed_while_reading`), Node's or VS Code's not-found error.
 */
export async function readUriBytes(uri: vscode.Uri, expectRealPath?: string): Promise<Uint8Array> {
  if (uri.scheme === 'file') {
    const file = await readNavigationFile(uri.fsPath);
    if (expectRealPath !== undefined && file.realPath !== expectRealPath) {
      throw new NavigationReadError(
        'changed_while_reading',
        `${uri.fsPath} now leads to ${file.realPath}, not ${expectRealPath} as when it was checked; retry the call`,
        file.realPath,
      );
    }
    return file.bytes;
  }
  const st = await vscode.workspace.fs.stat(uri);
  if (!(st.type & vscode.FileType.File)) {
    throw new NavigationReadError('not_regular_file', `${uri.toString()} is not a file: navigation reads regular files only`, undefined);
  }
  if (st.size > NAVIGATION_READ_CAP_BYTES) {
    throw new NavigationReadError(
      'too_large',
      `${uri.toString()} is ${st.size} bytes: navigation reads files up to ${NAVIGATION_READ_CAP_BYTES / (1024 * 1024)} MiB`,
      undefined,
    );
  }
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (bytes.length > NAVIGATION_READ_CAP_BYTES) {
    throw new NavigationReadError(
      'too_large',
      `${uri.toString()} grew past ${NAVIGATION_READ_CAP_BYTES} bytes while being read: navigation reads files up to ${NAVIGATION_READ_CAP_BYTES / (1024 * 1024)} MiB`,
      undefined,
    );
  }
  return bytes;
}

/**
 * The text of a document: the open editor buffer when there is one (unsaved edits included), else
 * {@link readUriBytes} decoded as UTF-8 (a leading byte order mark dropped). Containment is the
 * caller's: check {@link placeOf} first.
 * @param headChars for previews: decode only the file's start, at least this many UTF-16 code
 *   units plus one when it has them (`headText`), not a big file whole on this thread.
 */
export async function readUriText(uri: vscode.Uri, expectRealPath?: string, headChars?: number): Promise<string> {
  const key = uri.toString();
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  if (open) return open.getText();
  const bytes = await readUriBytes(uri, expectRealPath);
  return headChars === undefined ? new TextDecoder('utf-8').decode(bytes) : headText(bytes, headChars);
}

/**
 * The bytes of a document that must lie inside the workspace (no consent to read outside), e.g.
 * the wiki-link index's notes.
 * @throws NavigationReadError `outside_workspace` (naming the real path and the folders), and the
 *   errors of {@link readUriBytes}.
 */
export async function readInsideWorkspace(uri: vscode.Uri): Promise<Uint8Array> {
  const place = await placeOf(uri);
  if (!place.inside) throw new NavigationReadError('outside_workspace', await describeOutside(place), place.containment?.realPath);
  return readUriBytes(uri, place.containment?.realPath);
}
