/**
 * The one way navigation reads a file's text from disk (plain Node, no `vscode` import): the
 * `dsh_lsp` tool's target document and result previews, the wiki-link index, configured language
 * servers' documents. Model input names the path, so the read must survive hostile paths:
 *
 * - regular files only: FIFOs, character and block devices, sockets and directories are refused,
 *   checked on the path first (so a device is not even opened) and again on the opened descriptor
 *   (`fstat`), so a swap between the two checks is caught;
 * - never blocking: the file is opened `O_RDONLY | O_NONBLOCK | O_NOCTTY`, so a FIFO swapped in
 *   after the first check cannot block `open` (which would hold one of libuv's four thread-pool
 *   threads, shared by every extension in the host, until a writer appears);
 * - no `/proc` or `/sys` files: the kernel reports them as regular files whose size (0 or 4096)
 *   says nothing of their content (`/proc/self/environ` holds the host's environment);
 * - at most {@link NAVIGATION_READ_CAP_BYTES}: a file larger than the cap is refused, also one that
 *   grows while being read; the read stops at cap + 1 bytes;
 * - the descriptor is closed in every case.
 *
 * The result names the file's real path (symbolic links resolved), checked against the opened
 * descriptor, so a caller can decide containment on what was really read (`./containment.ts`).
 *
 * A read makes seven system calls (realpath, stat, open, fstat, readlink, read until EOF, close).
 * By default each runs on libuv's thread pool, so the calling thread (the extension host's) never
 * waits on the disk. A worker thread of ours, which may block, passes `blocking: true` and makes
 * the same calls synchronously: no hand-off to a pool thread and back for each, about a tenth of
 * the CPU time (10 000 small files on this machine: 0.3 s against 2.8 s).
 */

import * as fs from 'node:fs';
import { constants, promises as fsp, Stats } from 'node:fs';
import * as path from 'node:path';
import { formatBytes } from '../common/toolResultCap';

/**
 * Largest file navigation reads, in bytes (8 MiB). Source files are far smaller (TypeScript's own
 * `checker.ts`, among the largest hand-maintained sources, is about 3 MB); the cap bounds the
 * memory one hostile path can take.
 */
export const NAVIGATION_READ_CAP_BYTES = 8 * 1024 * 1024;

/** Folders of kernel pseudo-files that navigation never reads (Linux: procfs and sysfs). */
export const PSEUDO_FILE_ROOTS: readonly string[] = Object.freeze(['/proc', '/sys']);

/**
 * Why a read was refused: not a regular file, a `/proc` or `/sys` file, larger than the cap, the
 * path replaced while it was opened, or (from `./containment.ts`) a real path outside the
 * workspace folders that nobody allowed.
 */
export type NavigationReadRefusal = 'not_regular_file' | 'pseudo_file' | 'too_large' | 'changed_while_reading' | 'outside_workspace';

/**
 * A refused navigation read. `message` says what was wrong and what is valid; `reason` is stable
 * (safe to switch on); `realPath` is the path the refusal is about (symbolic links resolved, when
 * known). A missing file is not refused but rejects with Node's own error (`code: 'ENOENT'`).
 */
export class NavigationReadError extends Error {
  override readonly name = 'NavigationReadError';
  /** Same as {@link reason}, under the name Node's errors use, for callers that switch on `code`. */
  readonly code: NavigationReadRefusal;
  constructor(
    readonly reason: NavigationReadRefusal,
    message: string,
    readonly realPath: string | undefined,
  ) {
    super(message);
    this.code = reason;
  }
}

/** What {@link readNavigationFile} returns: the bytes and the real path of the file they came from. */
export interface NavigationFile {
  readonly bytes: Buffer;
  /** Absolute real path (symbolic links resolved) of the file read, checked against the opened descriptor. */
  readonly realPath: string;
}

/** Options of {@link readNavigationFile}. */
export interface NavigationReadOptions {
  /** Largest accepted size in bytes. Default {@link NAVIGATION_READ_CAP_BYTES}; a smaller value only. */
  readonly maxBytes?: number;
  /**
   * A rule of the caller's, given the real path once the read's own checks passed and before the
   * file is opened (see {@link readNavigationFile}); it throws to refuse the read.
   */
  readonly beforeOpen?: (realPath: string) => void;
  /**
   * Make the system calls synchronously, blocking the calling thread until the disk answers
   * (default false: on libuv's thread pool). Only for a thread that may block, such as a worker
   * thread of ours; never the extension host thread.
   */
  readonly blocking?: boolean;
}

/** A file opened for a navigation read, by descriptor. */
interface OpenedFile {
  readonly fd: number;
  stat(): Promise<Stats>;
  /** Bytes read into `buf` at `offset`, at most `length`, from the current position; 0 at EOF. */
  read(buf: Buffer, offset: number, length: number): Promise<number>;
  close(): Promise<void>;
}

/** The system calls a navigation read makes (see the module comment for the two ways). */
interface ReadCalls {
  realpath(p: string): Promise<string>;
  stat(p: string): Promise<Stats>;
  readlink(p: string): Promise<string>;
  open(p: string, flags: number): Promise<OpenedFile>;
}

/** On libuv's thread pool: the calling thread never waits. */
const threadPoolCalls: ReadCalls = {
  realpath: (p) => fsp.realpath(p),
  stat: (p) => fsp.stat(p),
  readlink: (p) => fsp.readlink(p),
  open: async (p, flags) => {
    const handle = await fsp.open(p, flags);
    return {
      fd: handle.fd,
      stat: () => handle.stat(),
      read: async (buf, offset, length) => (await handle.read(buf, offset, length, null)).bytesRead,
      close: () => handle.close(),
    };
  },
};

/** Synchronous, on the calling thread (the same calls: `realpath(3)` as `fsp.realpath` makes). */
const blockingCalls: ReadCalls = {
  realpath: async (p) => fs.realpathSync.native(p),
  stat: async (p) => fs.statSync(p),
  readlink: async (p) => fs.readlinkSync(p),
  open: async (p, flags) => {
    const fd = fs.openSync(p, flags);
    return {
      fd,
      stat: async () => fs.fstatSync(fd),
      read: async (buf, offset, length) => fs.readSync(fd, buf, offset, length, null),
      close: async () => fs.closeSync(fd),
    };
  },
};

const callsOf = (options: NavigationReadOptions): ReadCalls => (options.blocking ? blockingCalls : threadPoolCalls);

/** True when `realPath` is, or lies under, one of {@link PSEUDO_FILE_ROOTS}. */
export function isPseudoFilePath(realPath: string): boolean {
  return PSEUDO_FILE_ROOTS.some((root) => realPath === root || realPath.startsWith(root + '/'));
}

/** What a file is, in words (`a FIFO (named pipe)`, `a character device`, …), from its stat. */
export function describeFileKind(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/**
 * Read a file for navigation with the rules of this module.
 * @param filePath absolute path (a relative one resolves against the process's cwd), possibly
 *   through symbolic links.
 * @throws NavigationReadError `not_regular_file` (FIFO, device, socket, folder), `pseudo_file`
 *   (real path under `/proc` or `/sys`), `too_large` (over the cap; says the size and the cap),
 *   `changed_while_reading` (the path was replaced between the checks and the open);
 *   Node's error (`code` `ENOENT`, `EACCES`, …) when the file cannot be opened.
 */
export async function readNavigationFile(filePath: string, options: NavigationReadOptions = {}): Promise<NavigationFile> {
  const maxBytes = capOf(options);
  const { realPath, stat: before } = await checkNavigationFile(filePath, options);
  options.beforeOpen?.(realPath);
  const shown = shownPath(filePath, realPath);

  const calls = callsOf(options);
  const handle = await calls.open(realPath, READ_FLAGS);
  try {
    const st = await handle.stat();
    checkRegular(st, realPath, shown);
    if (st.dev !== before.dev || st.ino !== before.ino || !(await opensAs(calls, handle.fd, realPath))) {
      throw new NavigationReadError('changed_while_reading', `${shown} was replaced while being opened; retry the call`, realPath);
    }
    checkSize(st.size, maxBytes, realPath, shown);
    // One buffer of the announced size + 1 (a regular file's read ends at EOF: the extra byte
    // tells a file that grew); grown by doubling up to cap + 1.
    let buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        checkSize(total, maxBytes, realPath, shown, ' (it grew while being read)');
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, maxBytes + 1));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const bytesRead = await handle.read(buf, total, buf.length - total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    checkSize(total, maxBytes, realPath, shown, ' (it grew while being read)');
    return { bytes: buf.subarray(0, total), realPath };
  } finally {
    await handle.close();
  }
}

/**
 * The checks {@link readNavigationFile} makes before opening, on the path alone: real path not
 * under `/proc` or `/sys`, a regular file, not over the cap. Opens nothing. Callers that add a rule
 * of their own (containment) run it first, so a refusal names the most final reason.
 * @returns the real path and its stat.
 * @throws the same errors as {@link readNavigationFile} (but `changed_while_reading`).
 */
export async function checkNavigationFile(
  filePath: string,
  options: NavigationReadOptions = {},
): Promise<{ realPath: string; stat: Stats }> {
  const calls = callsOf(options);
  const realPath = await calls.realpath(filePath);
  const shown = shownPath(filePath, realPath);
  checkNotPseudo(realPath, shown);
  const stat = await calls.stat(realPath);
  checkRegular(stat, realPath, shown);
  checkSize(stat.size, capOf(options), realPath, shown);
  return { realPath, stat };
}

/**
 * {@link readNavigationFile} decoded as UTF-8 (a leading byte order mark dropped; invalid bytes
 * become U+FFFD). Same errors.
 */
export async function readNavigationText(
  filePath: string,
  options: NavigationReadOptions = {},
): Promise<{ text: string; realPath: string }> {
  const { bytes, realPath } = await readNavigationFile(filePath, options);
  return { text: new TextDecoder('utf-8').decode(bytes), realPath };
}

function capOf(options: NavigationReadOptions): number {
  return Math.min(options.maxBytes ?? NAVIGATION_READ_CAP_BYTES, NAVIGATION_READ_CAP_BYTES);
}

function shownPath(filePath: string, realPath: string): string {
  return realPath === path.resolve(filePath) ? realPath : `${filePath} (real path ${realPath})`;
}

function checkNotPseudo(realPath: string, shown: string): void {
  if (!isPseudoFilePath(realPath)) return;
  throw new NavigationReadError(
    'pseudo_file',
    `${shown} is a kernel pseudo-file under ${PSEUDO_FILE_ROOTS.find((r) => realPath === r || realPath.startsWith(r + '/'))}: navigation does not read /proc or /sys files; pass a source file`,
    realPath,
  );
}

function checkRegular(st: Stats, realPath: string, shown: string): void {
  if (st.isFile()) return;
  throw new NavigationReadError(
    'not_regular_file',
    `${shown} is ${describeFileKind(st)}: navigation reads regular files only (not FIFOs, devices, sockets or folders)`,
    realPath,
  );
}

function checkSize(size: number, maxBytes: number, realPath: string, shown: string, more = ''): void {
  if (size <= maxBytes) return;
  throw new NavigationReadError(
    'too_large',
    `${shown} is larger than ${maxBytes} bytes${more}: navigation reads files up to ${formatBytes(maxBytes)}`,
    realPath,
  );
}

/**
 * On Linux, the path the kernel gives for the opened descriptor (`/proc/self/fd/N`) must be
 * `realPath`: a path component swapped for a symbolic link between `realpath` and `open` shows
 * here. Elsewhere (no such link) the device and inode comparison of the caller stands alone.
 */
async function opensAs(calls: ReadCalls, fd: number, realPath: string): Promise<boolean> {
  if (process.platform !== 'linux') return true;
  let opened: string;
  try {
    opened = await calls.readlink(`/proc/self/fd/${fd}`);
  } catch {
    return true; // no procfs mounted: nothing more to compare
  }
  return opened === realPath;
}
