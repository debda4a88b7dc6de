/**
 * Reading a file that a program may have replaced, without blocking the calling thread (plain
 * Node). A session's private files (the traps report, the startup progress file) are written by
 * its shell, so a command run in it can put a named pipe (FIFO) or a device in their place. A
 * blocking open of a pipe for reading waits until some process opens it for writing, and a read
 * of an empty pipe until one writes: on the extension host thread that is every extension frozen,
 * for as long as the program wants. So the file is opened with `O_NONBLOCK` (open(2): for a FIFO
 * the open returns at once; for a regular file the flag changes nothing) and read only when
 * fstat(2) says it is a regular file.
 */
import * as fs from 'node:fs';

/**
 * The first `maxBytes` bytes of `file`, read only when it is a regular file (a symbolic link is
 * followed); undefined when it is anything else (a pipe, a socket, a device, a folder), absent,
 * or unreadable. Never blocks on the file's kind; never throws.
 */
export function readRegularFileHead(file: string, maxBytes: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOCTTY);
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
