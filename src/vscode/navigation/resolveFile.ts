/**
 * Where a model's `filePath` leads in the window: absolute paths as given, relative ones against
 * each workspace folder in order (the first that exists wins), with the workspace folder it
 * belongs to and the path to show back.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';

/** Where a file path leads: its URI, the workspace folder it belongs to (or the first one), and the path to show. */
export interface ResolvedFile {
  uri: vscode.Uri;
  folder: vscode.WorkspaceFolder | undefined;
  shown: string;
}

/** Resolve `filePath`: absolute as is; relative against each workspace folder in order (first existing wins). */
export async function resolveFile(filePath: string): Promise<ResolvedFile> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const candidates: vscode.Uri[] = [];
  if (path.isAbsolute(filePath)) candidates.push(vscode.Uri.file(filePath));
  else if (/^[a-z][a-z0-9+.-]+:\/\//i.test(filePath)) candidates.push(vscode.Uri.parse(filePath));
  else for (const f of folders) candidates.push(vscode.Uri.joinPath(f.uri, ...filePath.replace(/\\/g, '/').split('/').filter(Boolean)));
  for (const uri of candidates) {
    try {
      const isDirectory =
        uri.scheme === 'file'
          ? (await fsp.stat(uri.fsPath)).isDirectory()
          : ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
      if (isDirectory) throw new Error(`${filePath} is a folder; pass a file path`);
      const folder = vscode.workspace.getWorkspaceFolder(uri) ?? folders[0];
      const shown =
        folder && vscode.workspace.getWorkspaceFolder(uri)
          ? vscode.workspace.asRelativePath(uri, folders.length > 1)
          : uri.scheme === 'file'
            ? uri.fsPath
            : uri.toString();
      return { uri, folder, shown };
    } catch (e) {
      if (e instanceof Error && /is a folder/.test(e.message)) throw e;
    }
  }
  const where =
    path.isAbsolute(filePath) || candidates.length === 0
      ? folders.length === 0
        ? ' (no workspace folder is open: pass an absolute path)'
        : ''
      : ` (relative paths are resolved against the workspace folder${folders.length > 1 ? 's' : ''} ${folders.map((f) => f.uri.fsPath).join(', ')})`;
  throw new Error(`file not found: ${filePath}${where}. Check the path, e.g. list the folder first.`);
}

/** The workspace a request is about: the file's workspace folder, else the file's own folder (URI text). */
export function workspaceUriOf(target: ResolvedFile): string {
  return (target.folder?.uri ?? vscode.Uri.file(path.dirname(target.uri.fsPath))).toString();
}
