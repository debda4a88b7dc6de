/**
 * Background priority for a worker thread whose work can wait: the panel mirror's emulator and the
 * note parser. On a busy machine (a session printing 100 MB keeps a core busy, and the window draws
 * what the mirror sends) the kernel then runs the extension host thread, which answers every
 * extension's calls, before them. Nice values rank threads within one scheduling group: with
 * autogroup on (sched(7), `kernel.sched_autogroup_enabled`), programs started in a session of
 * their own (a PTY's shell, the window's processes) are ranked apart from the extension host.
 *
 * Linux only: there a thread is a task of its own, and setpriority(2) with `PRIO_PROCESS` and a
 * thread id sets that thread's nice value alone (see the NOTES of setpriority(2) and sched(7):
 * "the nice value is a per-thread attribute"). Node's `os.setPriority(pid, priority)` is that call;
 * the thread's id is read from `/proc/thread-self` (a link to `<pid>/task/<tid>`). Elsewhere a
 * process-wide nice value would lower the whole extension host, so nothing is changed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

/** The nice value a background thread gets: 10 (0 is the default, 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's scheduling priority to nice {@link BACKGROUND_NICE}, Linux only; a
 * thread already at that nice value or lower in priority (a process started with `nice -n 15`) is
 * left as it is: it is never raised. Call it in a worker thread, never on the extension host thread.
 * @returns the thread id whose priority was lowered, or `undefined` when nothing changed (not Linux,
 * no `/proc/thread-self`, the main thread, already that low, or the call was refused); it never throws.
 */
export function lowerThisThreadPriority(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isSafeInteger(tid) || tid <= 0 || tid === process.pid) return undefined;
    if (os.getPriority(tid) >= BACKGROUND_NICE) return undefined;
    os.setPriority(tid, BACKGROUND_NICE);
    return tid;
  } catch {
    return undefined;
  }
}
