/**
 * What the `dsh_symbols`, `dsh_diagnostics` and `dsh_call_hierarchy` tools share: files resolved
 * inside the workspace only, the roots that answers' paths are placed against, the lines that give
 * columns and previews, and the tool result cap (`TOOL_OUTPUT_CAP_BYTES`).
 */
import * as vscode from 'vscode';
import { headLines, PREVIEW_TEXT_MAX_CHARS } from '../../../lsp/headLines';
import type { Paged, ReadLines } from '../../../lsp/features/present';
import { LspError } from '../../../lsp/types';
import { checkNavigationFile } from '../../../lsp/fileRead';
import { describeOutside, placeOf, readUriText, workspaceFolderRealPaths } from '../../navigation/fileAccess';
import { resolveFile, ResolvedFile } from '../../navigation/resolveFile';
import { fitPage } from '../../../lsp/pageSummary';
import { TOOL_OUTPUT_CAP_BYTES } from '../toolResult';

/**
 * The lines of a result's document, for columns and call-site previews: read with the navigation
 * read (open buffer, else regular files up to the cap) inside the workspace only; outside it
 * `undefined` (columns are then the UTF-16 offset + 1, no preview): these tools never show text
 * from outside the workspace, as `dsh_lsp` does not without the user's consent.
 */
export const readLines: ReadLines = async (uri) => {
  const u = vscode.Uri.parse(uri);
  const place = await placeOf(u);
  return place.inside ? headLines(await readUriText(u, place.containment?.realPath, PREVIEW_TEXT_MAX_CHARS)) : undefined;
};

/**
 * Resolve `filePath` to a file inside the workspace (the rule of `dsh_lsp` without consent).
 * @throws Error naming the file's real path when it is outside every workspace folder;
 *   NavigationReadError for a file that is not a regular file or is over the read cap; the errors
 *   of `resolveFile` (not found, a folder).
 */
export async function resolveInside(filePath: string, tool: string): Promise<ResolvedFile & { realPath?: string }> {
  const target = await resolveFile(filePath);
  const place = await placeOf(target.uri);
  if (!place.inside) {
    throw new Error(
      `${await describeOutside(place)}: ${tool} reads only files inside the workspace folders (dsh_lsp can read such a file after asking the user)`,
    );
  }
  // Regular files only, within the read cap (a FIFO would block whoever opens it).
  if (target.uri.scheme === 'file') await checkNavigationFile(target.uri.fsPath);
  return { ...target, ...(place.containment?.realPath ? { realPath: place.containment.realPath } : {}) };
}

/** Workspace roots for placing paths: the `file:` folders' real paths, then the folders as opened. */
export async function roots(): Promise<string[]> {
  const real = (await workspaceFolderRealPaths()).map((p) => vscode.Uri.file(p).toString());
  return [...real, ...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString())];
}

/**
 * Keep a whole answer (`build` returns every field the tool answers with) within the tool result
 * cap ({@link TOOL_OUTPUT_CAP_BYTES} of JSON): while it is larger, the page is halved (its
 * `nextOffset` then leads on) and `capNote` says so (see `fitPage`, `src/lsp/pageSummary.ts`).
 */
export function capped<T extends Paged>(limit: number, build: (limit: number) => Promise<T>): Promise<T & { capNote?: string }> {
  return fitPage(limit, TOOL_OUTPUT_CAP_BYTES, build);
}

/** The workspace folders' URIs. @throws LspError `invalid_request` when none is open (`why` says what to do). */
export function openFolders(why: string): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  if (folders.length === 0) throw new LspError('invalid_request', `no workspace folder is open: ${why}`);
  return folders;
}
