/**
 * What a sandboxed session needs before it starts, checked so that a missing piece fails the open
 * with a clear reason instead of starting a shell outside the sandbox. Linux: bubblewrap (`bwrap`)
 * and `socat` on PATH, and user namespaces that bubblewrap may create; macOS: `sandbox-exec`.
 * The same programs VS Code's agent sandbox needs ("Sandbox agent terminal commands").
 */
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { isExecutable, which, writableFrom } from '../../common/writableFolders';
import { TerminalError } from '../errors';

// The folder test and the lookup are shared with the configured language servers (src/lsp/stdio/launchGuard.ts).
export { which, writableFrom } from '../../common/writableFolders';

/** The install hint of every Linux error. */
export const LINUX_INSTALL_HINT =
  "install them with `sudo apt-get install bubblewrap socat` (Debian, Ubuntu) or your distribution's packages of the same names";

/** Programs a sandboxed session runs with, by absolute path. */
export type SandboxPrograms = { platform: 'linux'; bwrap: string; socat: string } | { platform: 'darwin'; sandboxExec: string };

/** Longest the user-namespace probe may take (ms). */
const PROBE_TIMEOUT_MS = 5000;
/** bubblewrap paths whose user-namespace probe succeeded in this process. */
const probed = new Set<string>();

/**
 * Finds the programs a sandboxed session needs and, on Linux, checks once per bubblewrap path that
 * it can create the namespaces the runtime asks for (a user and a pid namespace). bubblewrap and
 * socat run outside the sandbox, so they are never taken from a folder a sandboxed command can
 * write (`writable`, see {@link writableFrom}): a program written there (a virtualenv's `bin` in the
 * workspace on PATH) would run with the person's full permissions at the next open.
 * @param pathEnv the PATH to look the programs up on.
 * @param writable absolute folders sandboxed commands may write (the policy's writable roots and
 *   the runtime's own); PATH folders in them, and programs whose real path lies in them, are skipped.
 * @throws TerminalError SANDBOX_UNAVAILABLE naming what is missing or refused and what to install.
 */
export async function sandboxPrograms(
  platform: NodeJS.Platform,
  pathEnv: string | undefined,
  writable: readonly string[] = [],
): Promise<SandboxPrograms> {
  if (platform === 'darwin') {
    const sandboxExec = '/usr/bin/sandbox-exec';
    if (!isExecutable(sandboxExec))
      throw unavailable(`${sandboxExec} is missing (macOS ships it; it is needed to run the session sandboxed)`);
    return { platform, sandboxExec };
  }
  if (platform !== 'linux') throw unavailable(`the agent sandbox runs on Linux (bubblewrap) and macOS (sandbox-exec), not on ${platform}`);
  const bwrap = which('bwrap', pathEnv, writable);
  const socat = which('socat', pathEnv, writable);
  const missing = [...(bwrap ? [] : ['bubblewrap (bwrap)']), ...(socat ? [] : ['socat'])];
  if (missing.length > 0) throw unavailable(`${missing.join(' and ')} not found on PATH; ${LINUX_INSTALL_HINT}`);
  if (!probed.has(bwrap!)) {
    const refusal = await namespaceRefusal(bwrap!);
    if (refusal !== undefined) {
      throw unavailable(
        `bubblewrap cannot create the sandbox's namespaces here (${refusal}): user namespaces are refused ` +
          "(e.g. kernel.unprivileged_userns_clone=0, or AppArmor's kernel.apparmor_restrict_unprivileged_userns=1 on Ubuntu 24.04; inside a container, run it with user namespaces allowed)",
      );
    }
    probed.add(bwrap!);
  }
  return { platform, bwrap: bwrap!, socat: socat! };
}

function unavailable(why: string): TerminalError {
  return new TerminalError(
    'SANDBOX_UNAVAILABLE',
    `the agent sandbox is on but cannot start: ${why}. No session was started (it never runs outside the sandbox when the sandbox is on).`,
  );
}

/**
 * The first folder of `pathEnv` a sandboxed command could put `name` in that comes before an
 * executable `name` outside every `writable` folder; undefined when none does. For a program the
 * runtime starts by name on the extension host's PATH (ripgrep), which this extension cannot
 * point elsewhere: a session must not start while such a folder would supply it.
 */
export function writableFolderBefore(name: string, pathEnv: string | undefined, writable: readonly string[]): string | undefined {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    // A relative folder is looked up from the host's current folder, which may be anywhere.
    if (!path.isAbsolute(dir) || writableFrom(dir, writable)) return dir;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return writableFrom(candidate, writable) ? candidate : undefined;
  }
  return undefined;
}

/** Why `bwrap --unshare-user --unshare-pid … true` fails, or undefined when it works. Never blocks the thread. */
function namespaceRefusal(bwrap: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(
      bwrap,
      ['--unshare-user', '--unshare-pid', '--dev-bind', '/', '/', 'true'],
      { timeout: PROBE_TIMEOUT_MS },
      (error, _stdout, stderr) => {
        if (!error) return resolve(undefined);
        resolve((String(stderr).trim().split('\n').pop() || error.message).slice(0, 300));
      },
    );
  });
}
