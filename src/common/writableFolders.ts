/**
 * Whether a path lies in a folder sandboxed commands can write (plain Node, no `vscode` import).
 * Programs DSH Bridge starts outside the agent sandbox (the sandbox's own bwrap, socat, rg and
 * which; configured language servers and their interpreters) must never come from such a folder: a
 * sandboxed command could write or replace them there and they would then run with the person's
 * full permissions. Shared by the terminal seam (src/terminal/sandbox/) and the navigation seam
 * (src/lsp/stdio/), which never import each other.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * True when `target` (an absolute path, existing or not) lies in one of `writable` (absolute
 * folders, existing or not), compared by real paths: symbolic links in either are followed as far
 * as the path exists, so a link from elsewhere into a writable folder counts as inside it.
 */
export function writableFrom(target: string, writable: readonly string[]): boolean {
  return writableFolderOf(target, writable) !== undefined;
}

/**
 * The first of `writable` (absolute folders, existing or not) that `target` (an absolute path,
 * existing or not) lies in, as {@link writableFrom} decides it; undefined when none.
 */
export function writableFolderOf(target: string, writable: readonly string[]): string | undefined {
  const real = realAsFarAsItExists(target);
  return writable.find((folder) => {
    const root = realAsFarAsItExists(folder);
    return [target, real].some((p) => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
  });
}

/** Where a path lookup met a folder sandboxed commands can write (see {@link writableOnTheWay}). */
export interface WritablePlace {
  /** The path on the way that lies in `folder`: the path itself, a link passed through, or where the lookup ends. */
  readonly path: string;
  /** The writable folder (one of the given ones) it lies in. */
  readonly folder: string;
}

/**
 * The first path that opening `target` passes through and that a sandboxed command could change,
 * or undefined when none is. Opening a path follows it one name at a time, as the kernel does:
 * every symbolic link met on the way (of the file or of a folder above it, however many in a row)
 * is a place where the path can be pointed elsewhere, and `..` goes up from where the lookup stands
 * (after the links before it), not from the spelled path. So a link in a safe folder to a writable
 * one counts, and so does a link in a writable folder that points back to a safe file (it can be
 * pointed elsewhere). Each place is judged by {@link writableFolderOf}.
 * @param target an absolute path, existing or not (the part that does not exist is taken as spelled).
 * @param writable absolute folders sandboxed commands can write.
 */
export function writableOnTheWay(target: string, writable: readonly string[]): WritablePlace | undefined {
  const roots = writable.map((folder) => ({ folder, root: realAsFarAsItExists(folder) }));
  // Each place is judged where it is (a link as the link, not its target: its target is the next place).
  for (const place of pathsOnTheWay(target)) {
    const at = path.join(realAsFarAsItExists(path.dirname(place)), path.basename(place));
    const hit = roots.find(({ root }) => at === root || at.startsWith(root.endsWith(path.sep) ? root : root + path.sep));
    if (hit) return { path: at, folder: hit.folder };
  }
  return undefined;
}

/** Most links one lookup follows (Linux's own limit, after which it fails with ELOOP). */
const MAX_LINKS = 40;

/**
 * The paths opening `target` (absolute) passes through: each symbolic link met (its own location,
 * under the real path of its folder), the path the lookup ends at, and `target` as spelled.
 */
function pathsOnTheWay(target: string): string[] {
  const places: string[] = [];
  let pending = target.split(path.sep).filter((c) => c !== '');
  let at = path.parse(target).root || path.sep;
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') {
      at = path.dirname(at);
      continue;
    }
    const next = path.join(at, name);
    let link: string | undefined;
    try {
      if (fs.lstatSync(next).isSymbolicLink()) link = fs.readlinkSync(next);
    } catch {
      // Missing from here on: the rest is taken as spelled.
      at = path.join(next, ...pending);
      break;
    }
    if (link === undefined) {
      at = next;
      continue;
    }
    places.push(next);
    if (++links > MAX_LINKS) break;
    pending = [...link.split(path.sep).filter((c) => c !== ''), ...pending];
    if (path.isAbsolute(link)) at = path.parse(link).root || path.sep;
  }
  places.push(at, target);
  return places;
}

/**
 * The first executable `name` in the folders of `pathEnv`, or undefined. Folders that lie in one of
 * `writable` (by real path, see {@link writableFrom}), and programs whose real path does, are skipped.
 */
export function which(name: string, pathEnv: string | undefined, writable: readonly string[] = []): string | undefined {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir || !path.isAbsolute(dir) || writableFrom(dir, writable)) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate) && !writableFrom(candidate, writable)) return candidate;
  }
  return undefined;
}

/** True for a regular file this process may execute. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `p` resolved, with its longest existing prefix replaced by that prefix's real path. */
function realAsFarAsItExists(p: string): string {
  const resolved = path.resolve(p);
  const rest: string[] = [];
  for (let at = resolved; ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      if (at === path.dirname(at)) return resolved;
      rest.push(path.basename(at));
    }
  }
}
