/**
 * Draining a PTY: proof that everything its programs wrote has reached us. A program's output
 * goes from the slave side through the kernel's tty buffers to the master, which node-pty reads
 * when the event loop gets to it; a program can already be blocked reading its next input while
 * the text it printed just before (its question) is still on the way. Bytes written to the slave
 * side reach the master in the order they were written (one tty, one output path), so the session
 * writes its own marker (markers.ts `drainMarker`, removed again by the marker parser) into the
 * slave side: when that marker arrives, everything written before it has arrived too.
 */
import * as fs from 'node:fs';

/**
 * Writes `marker` into the output of the terminal `ptsPath` (`/dev/pts/N`). Opened without
 * becoming our controlling terminal (O_NOCTTY) and without blocking (O_NONBLOCK: a terminal whose
 * output is stopped, e.g. by XOFF, never holds up the extension host's thread), closed at once.
 * Returns false when the marker could not be written whole (no such terminal, not ours to open,
 * the output buffer full); the caller then cannot prove the drain and must not wait for it.
 */
export function writeDrainMarker(ptsPath: string, marker: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(ptsPath, fs.constants.O_WRONLY | fs.constants.O_NOCTTY | fs.constants.O_NONBLOCK);
    const bytes = Buffer.from(marker, 'latin1');
    return fs.writeSync(fd, bytes) === bytes.length;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
