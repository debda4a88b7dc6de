/**
 * Result locations outside the workspace (plain Node, no `vscode` import). Navigation answers
 * (workspace symbols, definitions, references, implementations, call hierarchy, diagnostics) name
 * files and positions; a name or a position is a read of that file as much as its text is, so the
 * reading rule of the design map applies to them: what lies outside every workspace folder is left
 * out of an answer unless the user confirmed reading outside in that call, and the answer says how
 * many were left out and why.
 *
 * Inside or outside is judged by real path (symbolic links resolved, as `./containment.ts` does
 * for reads): a folder link in the workspace that leads to `/tmp/x` leads outside. A location whose
 * file no longer exists is judged by the real path of its nearest existing folder.
 */
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { containmentOfReal } from './containment';
import { TimeSlice } from './timeSlice';
import { fileUriToPath, parseUri } from './uri';

/** Whether the document `uri` (a URI string) lies inside the workspace. Never rejects. */
export type InsideJudge = (uri: string) => Promise<boolean>;

/** Options of {@link realPathJudge}. */
export interface JudgeOptions {
  /**
   * Real paths of folders counted as inside although no workspace folder holds them: files the
   * workspace's toolchain provides (the TypeScript library definitions VS Code bundles). Empty by
   * default.
   */
  readonly alsoInside?: readonly string[];
  /** How URIs of other schemes than `file:` are judged (e.g. VS Code's `getWorkspaceFolder`); default: outside. */
  readonly otherScheme?: (uri: string) => boolean;
}

/**
 * A judge over `folderRealPaths` (the real paths of the workspace folders, see `realFolders`),
 * remembering each URI's answer for its own life (make one per answer).
 */
export function realPathJudge(folderRealPaths: readonly string[], options: JudgeOptions = {}): InsideJudge {
  const roots = [...folderRealPaths, ...(options.alsoInside ?? [])];
  const known = new Map<string, Promise<boolean>>();
  return (uri) => {
    let answer = known.get(uri);
    if (!answer) {
      answer = judge(uri, roots, options.otherScheme);
      known.set(uri, answer);
    }
    return answer;
  };
}

async function judge(uri: string, roots: readonly string[], otherScheme?: (uri: string) => boolean): Promise<boolean> {
  try {
    if (parseUri(uri).scheme !== 'file') return otherScheme?.(uri) ?? false;
    return containmentOfReal(await realPathOfNearest(fileUriToPath(uri)), roots).inside;
  } catch {
    return false; // a malformed URI names nothing inside
  }
}

/**
 * The real path of `file`, or when it does not exist, the real path of its nearest existing
 * folder joined with the rest (so a missing file behind a folder link is judged by where the
 * link leads).
 */
async function realPathOfNearest(file: string): Promise<string> {
  let rest = '';
  for (let p = path.resolve(file); ; ) {
    try {
      const real = await fsp.realpath(p);
      return rest ? path.join(real, rest) : real;
    } catch {
      const parent = path.dirname(p);
      if (parent === p) return path.resolve(file);
      rest = rest ? path.join(path.basename(p), rest) : path.basename(p);
      p = parent;
    }
  }
}

/** Items kept and how many were left out by {@link keepInside}. */
export interface KeptInside<T> {
  readonly kept: T[];
  readonly leftOut: number;
}

/**
 * The items of `items` whose document (`uriOf`) lies inside the workspace by `judge`, in order,
 * and how many were left out. Yields to the event loop every few ms (large answers).
 * @throws LspError `cancelled` when `signal` aborts.
 */
export async function keepInside<T>(
  items: readonly T[],
  uriOf: (item: T) => string,
  judge: InsideJudge,
  signal?: AbortSignal,
): Promise<KeptInside<T>> {
  const slice = new TimeSlice();
  const kept: T[] = [];
  let leftOut = 0;
  for (const item of items) {
    await slice.pause(signal);
    if (await judge(uriOf(item))) kept.push(item);
    else leftOut++;
  }
  return { kept, leftOut };
}

/** What an answer says about the results it left out (the field `outsideWorkspace`). */
export interface OutsideLeftOut {
  /** Results left out because their file lies outside every workspace folder. */
  readonly leftOut: number;
  /** Why, and what would show them. */
  readonly why: string;
}

/**
 * The `outsideWorkspace` field for `leftOut` results left out by `tool`, or undefined for none.
 * @param restricted the workspace is not trusted (Restricted Mode): nothing outside can be shown.
 */
export function outsideLeftOut(leftOut: number, tool: string, restricted: boolean): OutsideLeftOut | undefined {
  if (leftOut === 0) return undefined;
  const what = `${leftOut} result${leftOut === 1 ? '' : 's'} in files outside the workspace folders (judged by real path: symbolic links resolved) left out`;
  const why = restricted
    ? `${what}: in Restricted Mode ${tool} shows nothing from outside the workspace`
    : `${what}: ${tool} shows names and positions from outside the workspace only as reading those files would, with the user's confirmation` +
      (tool === 'dsh_lsp'
        ? ' (call dsh_lsp on a file outside the workspace: VS Code asks, and that call shows results outside)'
        : ' (dsh_lsp asks the user before it reads a file outside the workspace)');
  return { leftOut, why };
}
