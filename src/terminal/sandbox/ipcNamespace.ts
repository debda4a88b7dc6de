/**
 * Giving a sandboxed session an IPC namespace of its own.
 *
 * The sandbox runtime's bubblewrap command line unshares the user, pid and (for restricted network)
 * network namespaces, not the IPC namespace: a sandboxed command sees the machine's System V IPC
 * objects (shared memory segments, message queues, semaphore sets) and, with the permissions its
 * user has outside, reads and writes them, or removes them (`ipcrm`): the memory of processes
 * outside the sandbox (X11's MIT-SHM images, a database's shared buffers), not a file the write
 * rules govern. POSIX shared memory and semaphores live in /dev/shm, which bubblewrap's `--dev`
 * already makes private. So `--unshare-ipc` is added: inside, the session has IPC objects of its
 * own, gone when the sandbox ends.
 */
import { onlyBubblewrapStart } from './controllingTerminal';

/**
 * `wrapped` (the bubblewrap command line as {@link keepControllingTerminal} returns it, which starts
 * bubblewrap as `<bwrapPath> --die-with-parent …` exactly once) with `--unshare-ipc` after
 * `--die-with-parent` (bubblewrap takes the flag more than once, so a runtime that adds it too is no conflict).
 * @throws SandboxCommandShapeError when that start is not found exactly once: the session is then not started.
 */
export function unshareIpc(wrapped: string, bwrapPath: string): string {
  const start = `${bwrapPath} --die-with-parent `;
  const after = onlyBubblewrapStart(wrapped, [start], start).at + start.length;
  return `${wrapped.slice(0, after)}--unshare-ipc ${wrapped.slice(after)}`;
}
