/**
 * Reading a file that a program may have replaced, without blocking the calling thread (plain
 * Node). A session's private files (the traps report, the startup progress file) are written by
 * its shell, so a command run in it can put a named pipe (FIFO) or a device in their place. A
 * blocking open of a pipe for reading waits until some process opens it for writing, and a read
 * of an empty pipe until one writes: on the extension host thread that is every extension frozen,
 * for as long as the program wants. So the file is opened with `O_NONBLOCK` (open(2): for a FIFO
 * the open returns at once; for a regular file the flag changes nothing) and read only when
 * fstat(2) says it is a regular file. A symbolic link in the file's place is not followed
 * (`O_NOFOLLOW`): the extension reads with the person's full permissions, and a sandboxed session
 * can write its private folder, so a link there to a file the sandbox may not read (`denyRead`)
 * would hand that file's content to the session's results.
 */
import * as fs from 'node:fs';

/**
 * The first `maxBytes` bytes of `file`, read only when it is a regular file; undefined when it is
 * anything else (a symbolic link, whatever it points to; a pipe, a socket, a device, a folder),
 * absent, or unreadable. Only the last component is checked for a link: the folders above it are
 * the caller's. Never blocks on the file's kind; never throws.
 */
export function readRegularFileHead(file: string, maxBytes: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY | fs.constants.O_NOFOLLOW);
    if (!fs.fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(maxBytes);
    const n = fs.readSync(fd, buf, 0, maxBytes, 0);
    return buf.subarray(0, n);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
