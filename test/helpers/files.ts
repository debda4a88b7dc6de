// Special files for the navigation read tests: FIFOs (and a way to release any reader still blocked
// on one) and Unix sockets, for the unit and the integration tests. Not a test file itself.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';

/** Make a FIFO (named pipe) at `p` with mkfifo(1). */
export function mkfifo(p: string): string {
  execFileSync('mkfifo', [p]);
  return p;
}

/**
 * Release every reader blocked opening or reading the FIFO at `p`: open it read-write (which never
 * blocks on Linux and counts as a writer) and close it, so blocked readers see end of file. Safe
 * when nobody is blocked. Used in cleanup, so a failing test leaves no libuv thread stuck.
 */
export function releaseFifo(p: string): void {
  try {
    fs.closeSync(fs.openSync(p, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
  } catch {
    // gone already
  }
}

/** A listening Unix socket at `p`; close it with the returned server. */
export async function unixSocket(p: string): Promise<net.Server> {
  const server = net.createServer((c) => c.end());
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(p, () => resolve()));
  return server;
}
