/**
 * The real-path URI of a document (plain Node, no `vscode` import): symbolic links resolved with
 * Node's `fs.realpath`, so two URIs reaching one file through different links compare equal. The
 * extension runs where the files are (a workspace extension), so Node sees the same files as
 * `vscode.workspace.fs` for `file:` URIs.
 */
import { promises as fsp } from 'node:fs';
import { canonicalUri, fileUriToPath, parseUri, pathToFileUri } from './uri';

/**
 * The canonical URI ({@link canonicalUri}) of `uri`'s real path for a `file:` URI; other schemes
 * are only made canonical.
 * @param onError what a failing `realpath` (missing file, no permission) does: `'throw'` (default)
 *   throws Node's error (`code: 'ENOENT'` for a missing file); `'keep'` answers the URI's own path.
 * @throws LspError `invalid_request` for a malformed URI; Node's error as above.
 */
export async function realUri(uri: string, onError: 'throw' | 'keep' = 'throw'): Promise<string> {
  if (parseUri(uri).scheme !== 'file') return canonicalUri(uri);
  const file = fileUriToPath(uri);
  const real = onError === 'keep' ? await fsp.realpath(file).catch(() => file) : await fsp.realpath(file);
  return pathToFileUri(real);
}
