/**
 * One session spawn per turn of the event loop. A spawn's first part is synchronous (its startup
 * folder and rc files written, then node-pty forks the process, whose page tables are copied
 * with it): many opens arriving together would otherwise run their spawns back to back in one
 * turn and hold the thread, which every other caller of the extension host shares, for all of
 * them. A waiter is let through from a `setImmediate` callback, one per callback, and the next
 * callback is scheduled from there, so the loop handles timers and I/O (other calls, refusals)
 * between two spawns. Plain Node.
 */

const waiting: (() => void)[] = [];
let scheduled = false;

function letNextThrough(): void {
  scheduled = false;
  const next = waiting.shift();
  if (waiting.length > 0) schedule();
  next?.();
}

function schedule(): void {
  if (scheduled) return;
  scheduled = true;
  setImmediate(letNextThrough);
}

/**
 * Resolves when this caller may run a spawn's synchronous part: in a later turn of the event
 * loop than any other caller let through before it, in the order asked. Never rejects.
 */
export function spawnTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    schedule();
  });
}
