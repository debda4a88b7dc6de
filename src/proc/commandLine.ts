/**
 * A process's command line, from `/proc/<pid>/cmdline` (NULs between its arguments), or from ps(1)
 * where there is no /proc: whole, or bounded for naming a process (at most 200 characters, read
 * whatever the program put there), on the calling thread or through the libuv thread pool.
 * Plain Node, no `vscode` import.
 */
import * as fs from 'node:fs';
import { CUT_MARKER } from '../common/textHead';
import { ps } from './psProgram';

/**
 * The whole command line of `pid` from `/proc/<pid>/cmdline` (NULs as spaces), read on this
 * thread. Undefined when the process is gone or unreadable.
 */
export function procArgs(pid: number): string | undefined {
  const raw = readText(`/proc/${pid}/cmdline`);
  return raw ? raw.replace(/\0+$/, '').replace(/\0/g, ' ') : undefined;
}

/**
 * The command line of `pid` (NULs as spaces): {@link procArgs} when `useProc`, else
 * `ps -o args= -p <pid>` (POSIX ps; macOS, BSD), run off this thread. Resolves undefined when the
 * process is gone or unreadable; never rejects.
 */
export async function processArgs(pid: number, useProc: boolean): Promise<string | undefined> {
  if (useProc) return procArgs(pid);
  const out = (await ps(['-ww', '-o', 'args=', '-p', String(pid)])).trim();
  return out || undefined;
}

/** Longest command line {@link commandLine} returns, in UTF-16 code units. */
const COMMAND_LINE_CHARS = 200;
/** Bytes of `/proc/<pid>/cmdline` read: enough for {@link COMMAND_LINE_CHARS} characters of UTF-8. */
const COMMAND_LINE_READ_BYTES = COMMAND_LINE_CHARS * 4;

/**
 * Command line of a process, NULs as spaces (trailing ones dropped), at most 200 characters;
 * `comm` when unreadable or empty. Only the first 800 bytes are read: a program chooses its command
 * line (megabytes, and it may rewrite it), and naming it must cost the same whatever it holds.
 */
export function commandLine(pid: number, fallback = ''): string {
  let fd: number | undefined;
  try {
    fd = fs.openSync(`/proc/${pid}/cmdline`, 'r');
    const buf = Buffer.alloc(COMMAND_LINE_READ_BYTES + 1); // one more byte: was the end reached?
    let length = 0;
    for (let n; length < buf.length && (n = fs.readSync(fd, buf, length, buf.length - length, null)) > 0; ) length += n;
    return commandLineText(buf, length, fallback);
  } catch {
    return fallback;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * The command line in the first `length` bytes read of `/proc/<pid>/cmdline` into `buf`: NULs as
 * spaces, trailing ones dropped when the end was reached, at most COMMAND_LINE_CHARS (see
 * cutBetweenWords); `fallback` when empty.
 */
function commandLineText(buf: Buffer, length: number, fallback: string): string {
  const whole = length < buf.length;
  if (whole) while (length > 0 && buf[length - 1] === 0) length--;
  const raw = buf.toString('utf8', 0, length).replace(/\0/g, ' ');
  if (!raw) return fallback.slice(0, COMMAND_LINE_CHARS);
  return whole && raw.length <= COMMAND_LINE_CHARS ? raw : cutBetweenWords(raw);
}

/**
 * `text`, longer than COMMAND_LINE_CHARS or not read to its end, cut after its last whole word
 * that fits (a space then `…`). The command line is redacted after the cut (secretRedactor.ts),
 * and a secret cut in two is no longer found: the word the bound falls in is left out whole. A
 * first word longer than the bound is cut at it.
 */
function cutBetweenWords(text: string): string {
  // The space kept and the marker fit in the bound.
  const space = text.lastIndexOf(' ', COMMAND_LINE_CHARS - 2);
  return space > 0 ? `${text.slice(0, space + 1)}${CUT_MARKER}` : text.slice(0, COMMAND_LINE_CHARS);
}

/**
 * {@link commandLine} through the libuv thread pool: reading a process's command line takes its
 * memory map's lock, which a process that is forking or exec'ing holds (for long on a busy
 * machine), and that wait must not fall on the calling thread. Never rejects.
 */
export async function commandLineAsync(pid: number, fallback = ''): Promise<string> {
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(`/proc/${pid}/cmdline`, 'r');
    const buf = Buffer.alloc(COMMAND_LINE_READ_BYTES + 1); // one more byte: was the end reached?
    let length = 0;
    for (let n; length < buf.length && (n = (await handle.read(buf, length, buf.length - length, null)).bytesRead) > 0; ) length += n;
    return commandLineText(buf, length, fallback);
  } catch {
    return fallback;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A whole file as UTF-8, or undefined when it cannot be read (a process gone, a permission). */
export function readText(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
