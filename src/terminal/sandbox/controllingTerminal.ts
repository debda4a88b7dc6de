/**
 * Keeping the session's PTY the sandboxed shell's controlling terminal.
 *
 * The sandbox runtime starts bubblewrap with `--new-session`: bubblewrap's child calls setsid(2),
 * so the command has no controlling terminal. The runtime does it against TIOCSTI, the ioctl that
 * pushes bytes into a terminal's input queue: a sandboxed program could otherwise type into the
 * terminal it was started from, where an unsandboxed shell reads the next line after the command
 * ends (CVE-2017-5226 against bubblewrap). Without a controlling terminal an interactive bash has
 * no job control ("cannot set terminal process group (-1)"), the terminal's foreground process
 * group is unknown (`tpgid` -1) and Ctrl-C reaches nobody: the readiness probe, SIGINT to the
 * foreground group and background jobs all stop working.
 *
 * Here the terminal is not someone else's. Each agent session has a PTY of its own, created for it
 * by node-pty; its master is held by the extension host alone, and the only processes that have
 * the slave open are the session's: the sandbox launcher (bubblewrap's outer process, which never
 * reads it) and what runs inside the sandbox. So a byte pushed into that PTY's input queue by
 * TIOCSTI, or written to it in any other way, is read by the sandboxed shell or its sandboxed
 * children, which are exactly as confined as the program that pushed it. There is no outer shell
 * behind the sandbox waiting to read the next line: when the sandboxed shell exits, the session
 * ends and the extension host closes the master. Job-control ioctls stay inside too: TIOCSPGRP
 * (tcsetpgrp) names a process group by its pid in the caller's pid namespace, and the sandbox has
 * its own, so no group outside it can be made the foreground; a signal the terminal generates
 * (Ctrl-C) goes to the foreground group, which is then a sandboxed one or the launcher's own.
 * The runtime's seccomp filter (apply-seccomp) refuses new Unix sockets; it does not filter ioctls,
 * so nothing else in the runtime depended on `--new-session`.
 *
 * So the sandboxed shell runs in node-pty's session, with the session's PTY as its controlling
 * terminal: exactly `--new-session` is removed from the bubblewrap command line the runtime built,
 * nothing else is changed.
 */

/** The runtime's command line does not have the shape this construction relies on. */
export class SandboxCommandShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxCommandShapeError';
  }
}

/**
 * `wrapped` (the shell command line the sandbox runtime built, which starts bubblewrap as
 * `<bwrap> --new-session --die-with-parent …` (bubblewrap named `bwrap` or by `bwrapPath`), possibly after a `/bin/sh -c … srt-args …` prefix
 * that passes the mounts through a file) without `--new-session`, with bubblewrap named by the
 * absolute path `bwrapPath` (the one the prerequisites check found, so the session's PATH cannot
 * choose another program).
 * @throws SandboxCommandShapeError when that start of the bubblewrap call is not found exactly once
 *   (a runtime version that builds it otherwise): the session is then not started.
 */
export function keepControllingTerminal(wrapped: string, bwrapPath: string): string {
  if (!/^\/[A-Za-z0-9_./+-]+$/.test(bwrapPath))
    throw new SandboxCommandShapeError(
      `bubblewrap's path ${JSON.stringify(bwrapPath)} must be absolute and plain (letters, digits, _ . / + -)`,
    );
  // The runtime names bubblewrap as configured (bwrapPath) once its manager is initialized, else `bwrap`.
  const starts = [...new Set([bwrapPath, 'bwrap'])].map((name) => `${name} --new-session --die-with-parent `);
  const only = onlyBubblewrapStart(wrapped, starts, 'bwrap --new-session --die-with-parent ');
  return `${wrapped.slice(0, only.at)}${bwrapPath} --die-with-parent ${wrapped.slice(only.at + only.start.length)}`;
}

/**
 * Where `wrapped` (a sandbox command line) starts bubblewrap as one of `starts`: the only place
 * one of them begins a word (at the line's start or after a space: `bwrap` inside
 * `/usr/bin/bwrap` is no word), and which one.
 * @throws SandboxCommandShapeError naming `shown` when no such place or more than one exists.
 */
export function onlyBubblewrapStart(wrapped: string, starts: readonly string[], shown: string): { at: number; start: string } {
  const found = starts.flatMap((start) =>
    occurrences(wrapped, start)
      .filter((at) => at === 0 || wrapped[at - 1] === ' ')
      .map((at) => ({ at, start })),
  );
  if (found.length !== 1) {
    throw new SandboxCommandShapeError(
      `the sandbox runtime's command line does not start bubblewrap as "${shown}…" exactly once; this runtime version is not supported`,
    );
  }
  return found[0]!;
}

function occurrences(text: string, part: string): number[] {
  const at: number[] = [];
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) at.push(i);
  return at;
}
