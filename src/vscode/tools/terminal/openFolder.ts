/**
 * The folder a new session opens in, as its confirmation states it and as the open then checks it.
 * Plain Node, no `vscode` import.
 *
 * The folder a caller names may be a symbolic link (`<workspace>/docs -> /`): bash starts where it
 * leads, and the user's startup files and prompt hooks run there. So the confirmation names the
 * real path (and the link it is reached through), and the open starts the shell in that real path,
 * refusing when the named folder leads elsewhere by then (a link swapped meanwhile).
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../../../terminal/errors';
import { PATH_QUOTE_UNITS, quoteInput } from '../../../common/quoteInput';
import { inlineCode } from '../markdownText';

/** A folder as the caller named it, and where it led when it was resolved. */
export interface OpenFolder {
  /** The path the caller gave (or the default folder). */
  readonly given: string;
  /** Its real path (symbolic links followed); undefined when it could not be resolved (missing, unreadable). */
  readonly realPath?: string;
}

/**
 * `given` with its real path; a path that cannot be resolved has none (the open then says why), nor
 * has a relative one (it would resolve against the extension host's folder; the open refuses it).
 */
export async function resolveOpenFolder(given: string): Promise<OpenFolder> {
  if (!path.isAbsolute(given)) return { given };
  try {
    return { given, realPath: await fsp.realpath(given) };
  } catch {
    return { given };
  }
}

/** How a confirmation names the folder, as markdown: the real path, and the link when it differs. */
export function openFolderText(folder: OpenFolder): string {
  if (folder.realPath === undefined || folder.realPath === path.resolve(folder.given)) return inlineCode(folder.given);
  return `${inlineCode(folder.realPath)} (reached through ${inlineCode(folder.given)})`;
}

/**
 * The folder to start the shell in for a confirmation that stated `stated`: its real path, resolved
 * again now; the path as given when it could not be resolved either time (the open then refuses a
 * folder that does not exist).
 * @throws TerminalError RECEIVER_CHANGED when the path leads elsewhere now; nothing is opened.
 */
export async function confirmedOpenFolder(stated: OpenFolder): Promise<string> {
  const now = await resolveOpenFolder(stated.given);
  if (now.realPath === stated.realPath) return now.realPath ?? stated.given;
  const where = (real: string | undefined) => (real === undefined ? 'nothing that exists' : quoteInput(real, PATH_QUOTE_UNITS));
  throw new TerminalError(
    'RECEIVER_CHANGED',
    `no session was opened: the confirmation showed ${quoteInput(stated.given, PATH_QUOTE_UNITS)} leading to ${where(stated.realPath)}, but now it leads to ${where(now.realPath)}. Call dsh_terminal_open again to confirm where the session starts`,
  );
}
