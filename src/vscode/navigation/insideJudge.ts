/**
 * Which result locations count as inside the workspace for navigation answers (the rule itself is
 * plain Node: `src/lsp/outsideWorkspace.ts`): the real paths of the open workspace folders, plus
 * one folder the workspace's toolchain provides, the TypeScript library definitions bundled with
 * VS Code (see {@link toolchainFolders}).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { InsideJudge, realPathJudge } from '../../lsp/outsideWorkspace';
import { workspaceFolderRealPaths } from './fileAccess';

/**
 * Real paths of folders whose files count as inside although no workspace folder holds them:
 * `<VS Code>/extensions/node_modules/typescript/lib`, the TypeScript VS Code bundles for its
 * TypeScript and JavaScript support when the workspace has none of its own. It holds the standard
 * library definitions (`lib.es5.d.ts`, `lib.dom.d.ts`, …) that a definition of `Array` or
 * `setTimeout` leads to: the same files in every installation of that VS Code version, part of
 * the program, not of the person's files. A workspace's own `node_modules/typescript` is inside
 * anyway. Nothing else of VS Code's installation is counted (its other extensions' files, its
 * product code).
 */
export function toolchainFolders(): string[] {
  try {
    return [fs.realpathSync(path.join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript', 'lib'))];
  } catch {
    return []; // not bundled in this VS Code
  }
}

/**
 * A judge for one answer: inside the workspace folders by real path, or in {@link toolchainFolders};
 * URIs of other schemes are inside when VS Code places them in a workspace folder.
 */
export async function insideJudge(): Promise<InsideJudge> {
  return realPathJudge(await workspaceFolderRealPaths(), {
    alsoInside: toolchainFolders(),
    otherScheme: (uri) => vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(uri)) !== undefined,
  });
}
