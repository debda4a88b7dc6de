/**
 * Loading node-pty, a native module: the copy packaged with the extension first, then fallbacks
 * such as VS Code's own (`<vscode.env.appRoot>/node_modules/node-pty`). Plain Node.
 */
import * as path from 'node:path';
import type * as NodePty from 'node-pty';
import { errorMessage } from '../../common/errorMessage';

/** The node-pty module's API. */
export type PtyModule = typeof NodePty;

/** A place to load node-pty from: a label for the log and a module id or absolute path. */
export interface PtyCandidate {
  label: string;
  module: string;
}

/**
 * Which candidate loaded, and why earlier ones did not (one entry per failed candidate). `binary`
 * is the native file it loaded (see {@link loadedBinary}), undefined when that cannot be told.
 */
export interface PtyLoadResult {
  pty: PtyModule;
  label: string;
  failures: string[];
  binary?: string;
}

/**
 * Loads the first candidate that loads and exposes `spawn`.
 * @throws Error listing every candidate and its failure when none loads.
 */
export function loadNodePty(candidates: PtyCandidate[], load: (id: string) => unknown = require): PtyLoadResult {
  const failures: string[] = [];
  for (const candidate of candidates) {
    try {
      const mod = load(candidate.module) as PtyModule;
      if (typeof mod?.spawn !== 'function') throw new Error('module has no spawn() export');
      return { pty: mod, label: candidate.label, failures, binary: loadedBinary(candidate.module) };
    } catch (error) {
      failures.push(`${candidate.label} (${candidate.module}): ${errorMessage(error)}`);
    }
  }
  throw new Error(`node-pty could not be loaded from any location: ${failures.join('; ')}`);
}

/**
 * The native file node-pty loaded from the package `moduleId` names, relative to the package's
 * folder with `/` separators: `build/Release/pty.node` (built at install), or
 * `prebuilds/<platform>-<arch>/pty.node` (node-pty's own, which it loads when there is no build).
 * Read from Node's module cache, which holds every loaded `.node` file by its path; undefined when
 * the package cannot be resolved or no `pty.node` under it was loaded.
 */
export function loadedBinary(moduleId: string, cache: NodeJS.Dict<NodeJS.Module> = require.cache): string | undefined {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${moduleId}/package.json`));
  } catch {
    return undefined;
  }
  const file = Object.keys(cache).find((f) => f.startsWith(dir + path.sep) && path.basename(f) === 'pty.node');
  return file === undefined ? undefined : path.relative(dir, file).split(path.sep).join('/');
}
