/**
 * Where a window's socket lives: a folder only this user can enter (mode 0700, owned by us, not a
 * symbolic link), preferably the extension's storage folder. A Unix socket path must fit
 * `sockaddr_un.sun_path` (108 bytes on Linux, 104 on macOS, NUL included; unix(7)), which a deep
 * profile's storage path may not: then the folder is `$XDG_RUNTIME_DIR/dsh-bridge` or
 * `<os.tmpdir()>/dsh-bridge-<uid>`.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errorMessage } from '../common/errorMessage';

/** Longest socket path (bytes, without the NUL) every supported platform accepts (macOS: 104 - 1). */
export const MAX_SOCKET_PATH_BYTES = 103;

/**
 * Creates (or checks) `dir` as a private folder: mode 0700 and owned by this user, not a
 * symbolic link. An existing folder of ours with a wider mode is narrowed to 0700.
 * @throws Error naming the folder when it is a symbolic link, not a folder, or owned by someone else
 *   (a folder someone else prepared could let them reach or replace the socket).
 */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} is not a plain folder; refusing to put the MCP socket there`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) {
    throw new Error(`${dir} belongs to user ${st.uid}, not to us; refusing to put the MCP socket there`);
  }
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/**
 * Candidate folders for the socket, in order: `preferred` (the extension's storage), then the
 * per-user runtime folder, then a per-user folder in the temp folder.
 */
export function socketDirCandidates(preferred: string | undefined, env: NodeJS.ProcessEnv = process.env): string[] {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return [
    ...(preferred ? [preferred] : []),
    ...(env.XDG_RUNTIME_DIR && path.isAbsolute(env.XDG_RUNTIME_DIR) ? [path.join(env.XDG_RUNTIME_DIR, 'dsh-bridge')] : []),
    path.join(os.tmpdir(), `dsh-bridge-${uid}`),
  ];
}

/**
 * A fresh socket path for one window: `<folder>/w-<16 hex digits>.sock` in the first candidate
 * folder whose path fits {@link MAX_SOCKET_PATH_BYTES} and that {@link ensurePrivateDir} accepts.
 * @throws Error listing each folder and why it was not used, when none is.
 */
export function chooseSocketPath(candidates: readonly string[]): string {
  const name = `w-${randomBytes(8).toString('hex')}.sock`;
  const why: string[] = [];
  for (const dir of candidates) {
    const socketPath = path.join(dir, name);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH_BYTES) {
      why.push(`${dir}: the socket path would be ${Buffer.byteLength(socketPath)} bytes (at most ${MAX_SOCKET_PATH_BYTES})`);
      continue;
    }
    try {
      ensurePrivateDir(dir);
      return socketPath;
    } catch (e) {
      why.push(errorMessage(e));
    }
  }
  throw new Error(`no folder for the MCP socket: ${why.join('; ')}`);
}
