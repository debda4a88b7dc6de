/**
 * The folders a sandboxed-session test works in, made fresh under the system temp folder (its
 * real path, links resolved): `workspace` (writable to the session), `outside` (not),
 * `denied` (for `denyRead`) and `<root>/tmp` (the sandbox temp folder).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export function sandboxFolders(prefix: string): { root: string; workspace: string; outside: string; denied: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  const folders = { root, workspace: path.join(root, 'workspace'), outside: path.join(root, 'outside'), denied: path.join(root, 'denied') };
  for (const d of [folders.workspace, folders.outside, folders.denied, path.join(root, 'tmp')]) fs.mkdirSync(d);
  return folders;
}
