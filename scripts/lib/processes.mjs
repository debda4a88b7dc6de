// @ts-check
// Running and stopping child processes.
import { spawnSync } from 'node:child_process';
import { ROOT } from './paths.mjs';
import { sleep } from './cleanup.mjs';

/**
 * Runs a command to completion (cwd: the repository root) with its output on our stderr unless
 * `opts.stdio` says otherwise. Throws, naming the command, when it cannot start or exits non-zero.
 * @param {string} cmd
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [opts]
 */
export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: ROOT, stdio: ['ignore', process.stderr, process.stderr], ...opts });
  if (res.error) throw new Error(`${cmd} ${args.join(' ')}: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${res.status ?? res.signal}`);
  return res;
}

/**
 * Stops a detached child and everything in its process group: SIGTERM to the group, SIGKILL after
 * 5 s if the child has not exited. A child that already exited still gets SIGKILL for the group,
 * for stray grandchildren.
 * @param {import('node:child_process').ChildProcess} child  started with `detached: true`
 * @param {Promise<unknown>} exited  settles when the child exits
 */
export async function killGroup(child, exited) {
  const signal = (/** @type {NodeJS.Signals} */ sig) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, sig);
    } catch {
      /* already gone */
    }
  };
  if (child.exitCode !== null || child.signalCode !== null) return signal('SIGKILL');
  signal('SIGTERM');
  if ((await Promise.race([exited.then(() => 'exited'), sleep(5000)])) !== 'exited') signal('SIGKILL');
}
