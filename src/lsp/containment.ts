/**
 * Whether a file lies inside the workspace, by real path (plain Node, no `vscode` import), and the
 * record of the user's consent to read outside it. Navigation reads stay in the workspace unless
 * the user confirmed (design map, trust rules): the tool layer asks in `prepareInvocation`, the
 * way VS Code's own file tools ask before reading a file outside the workspace, records the
 * consent here, and `invoke` checks it against the real path it is about to read.
 *
 * Real paths: a file is inside when `fs.realpath` of the file lies inside `fs.realpath` of a
 * workspace folder, so `../`, absolute paths and symbolic links (a workspace file linking to
 * `/etc/passwd`, a folder linking to `/`) are all judged by where they lead. Comparison is exact
 * (case-sensitive), on `/`-separated absolute paths.
 */

import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { NavigationFile, NavigationReadError, NavigationReadOptions, readNavigationFile } from './fileRead';
import { CallConsents } from '../common/callConsents';

/** Where a file lies relative to the workspace folders. */
export interface Containment {
  /** The file's real path (symbolic links resolved). */
  readonly realPath: string;
  /** True when {@link realPath} lies inside the real path of a workspace folder. */
  readonly inside: boolean;
  /** The real path of the folder that contains it, when inside. */
  readonly folder?: string;
  /**
   * The path as given, when it differs from {@link realPath} because a symbolic link (or `..`)
   * led elsewhere: shown to the user in the confirmation ("through the symbolic link …").
   */
  readonly via?: string;
}

/**
 * True when `realPath` is `folderRealPath` or lies below it. Both must be absolute real paths;
 * `/a/bc` is not inside `/a/b`.
 */
export function isInsideFolder(realPath: string, folderRealPath: string): boolean {
  const root = folderRealPath.length > 1 ? folderRealPath.replace(/[\\/]+$/, '') : folderRealPath;
  if (realPath === root) return true;
  const rel = path.relative(root, realPath);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * The real paths of `folders` (absolute paths, possibly through symbolic links); folders that no
 * longer exist are left out (nothing is inside them).
 */
export async function realFolders(folders: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const f of folders) {
    try {
      out.push(await fsp.realpath(f));
    } catch {
      // a missing folder contains nothing
    }
  }
  return out;
}

/**
 * Where `filePath` leads, relative to the workspace folders.
 * @param filePath absolute path of the file, possibly through symbolic links.
 * @param folderRealPaths real paths of the workspace folders (see {@link realFolders}).
 * @throws Node's error (`code: 'ENOENT'`, …) when `filePath` cannot be resolved.
 */
export async function containmentOf(filePath: string, folderRealPaths: readonly string[]): Promise<Containment> {
  const realPath = await fsp.realpath(filePath);
  return containmentOfReal(realPath, folderRealPaths, path.resolve(filePath));
}

/** {@link containmentOf} for a path already resolved to `realPath` (`given`: the path as the caller named it). */
export function containmentOfReal(realPath: string, folderRealPaths: readonly string[], given?: string): Containment {
  const folder = folderRealPaths.find((f) => isInsideFolder(realPath, f));
  return {
    realPath,
    inside: folder !== undefined,
    ...(folder !== undefined ? { folder } : {}),
    ...(given !== undefined && given !== realPath ? { via: given } : {}),
  };
}

/**
 * {@link readNavigationFile} for a file that must lie inside the workspace (no consent to read
 * outside): refused before anything is opened when its real path is outside every folder, and
 * checked again on the real path of what was read.
 * @param folderRealPaths real paths of the workspace folders (see {@link realFolders}).
 * @throws NavigationReadError `outside_workspace` (naming the real path and the folders), and
 *   every error of {@link readNavigationFile}.
 */
export async function readNavigationFileInside(
  filePath: string,
  folderRealPaths: readonly string[],
  options: NavigationReadOptions = {},
): Promise<NavigationFile> {
  // The read's own refusals (FIFO, device, /proc, size) are final: they come first, then this
  // rule, on the real path the opened descriptor is then checked against.
  const inside = (realPath: string) => checkInside(containmentOfReal(realPath, folderRealPaths, path.resolve(filePath)), folderRealPaths);
  const file = await readNavigationFile(filePath, {
    ...options,
    beforeOpen: (realPath) => (options.beforeOpen?.(realPath), inside(realPath)),
  });
  inside(file.realPath);
  return file;
}

/** The `outside_workspace` refusal for `c`, unless it is inside. */
export function checkInside(c: Containment, folderRealPaths: readonly string[]): void {
  if (c.inside) return;
  throw new NavigationReadError('outside_workspace', outsideMessage(c, folderRealPaths), c.realPath);
}

/** "X (through the symbolic link Y) is outside the workspace folders A, B", for errors and logs. */
export function outsideMessage(c: Containment, folderRealPaths: readonly string[]): string {
  const where =
    folderRealPaths.length === 0
      ? 'no workspace folder is open'
      : `the workspace folder${folderRealPaths.length > 1 ? 's are' : ' is'} ${folderRealPaths.join(', ')}`;
  return `${c.realPath}${c.via ? ` (reached through ${c.via})` : ''} is outside the workspace (${where})`;
}

/** How long a recorded consent waits for its call, in ms (the user may take a while to answer). */
export const OUTSIDE_READ_CONSENT_TTL_MS = 10 * 60_000;

/**
 * Consents to read files outside the workspace, each for one tool call and one real path (the
 * subject): see {@link CallConsents}. A call whose file changed between the confirmation and the
 * read (a symbolic link swapped) finds no consent and is refused. Consents expire after
 * {@link OUTSIDE_READ_CONSENT_TTL_MS}.
 */
export class OutsideReadConsents extends CallConsents {
  constructor(ttlMs = OUTSIDE_READ_CONSENT_TTL_MS) {
    super(ttlMs);
  }
}
