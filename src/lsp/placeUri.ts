/**
 * Where a URI lies for the model (plain Node): the one rule for paths in every tool's answer.
 */
import { parseUri, relativePathOf } from './uri';

export interface PlacedPath {
  /** Workspace-relative and decoded (`docs/My Notes #1/a.ts`); the absolute path (or the URI for other schemes) outside. */
  readonly path: string;
  readonly where: 'workspace' | 'nodeModules' | 'external';
}

/**
 * Place `uri` against workspace `roots` (URI strings, the first containing root wins): the path to
 * show and where it lies (see {@link PlacedPath}). The one rule for paths in every tool's answer.
 */
export function placeUri(roots: readonly string[], uri: string): PlacedPath {
  for (const root of roots) {
    const rel = relativePathOf(root, uri);
    if (rel !== undefined) return { path: rel, where: /(^|\/)node_modules\//.test(rel) ? 'nodeModules' : 'workspace' };
  }
  const u = parseUri(uri);
  return { path: u.scheme === 'file' ? u.path : uri, where: 'external' };
}
