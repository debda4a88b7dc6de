/**
 * Loading node-pty, a native module: the copy packaged with the extension first, then fallbacks
 * such as VS Code's own (`<vscode.env.appRoot>/node_modules/node-pty`). Plain Node.
 */
import type * as NodePty from 'node-pty';
import { errorMessage } from '../../common/errorMessage';

/** The node-pty module's API. */
export type PtyModule = typeof NodePty;

/** A place to load node-pty from: a label for the log and a module id or absolute path. */
export interface PtyCandidate {
  label: string;
  module: string;
}

/** Which candidate loaded, and why earlier ones did not (one entry per failed candidate). */
export interface PtyLoadResult {
  pty: PtyModule;
  label: string;
  failures: string[];
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
      return { pty: mod, label: candidate.label, failures };
    } catch (error) {
      failures.push(`${candidate.label} (${candidate.module}): ${errorMessage(error)}`);
    }
  }
  throw new Error(`node-pty could not be loaded from any location: ${failures.join('; ')}`);
}
