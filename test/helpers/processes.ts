// Whether a process still runs, for tests that check what a close, a crash or a shutdown left
// behind. Linux only (it reads /proc), like the terminal service's probe.
import type { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import { readStat } from '../../src/proc/stat';

/**
 * True while process `pid` runs: `/proc/<pid>/stat` exists and its state is not `Z`. A zombie
 * (exited, not yet reaped by its parent) counts as gone: it runs no code and holds no terminal.
 */
export function alive(pid: number): boolean {
  const stat = readStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** Live processes (zombies left out) whose command line is exactly `command` (NULs as spaces). */
export function processesRunning(command: string): number[] {
  const found: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const line = fs.readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0+$/, '').replace(/\0/g, ' ');
      if (line === command && alive(Number(name))) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

/** A shell command that starts `sleep SECONDS` as a daemon: a double fork with setsid(2) between, its parents exited. */
export function daemonCommand(seconds: string): string {
  return `python3 -c 'import os
if os.fork(): os._exit(0)
os.setsid()
if os.fork(): os._exit(0)
os.execvp("sleep", ["sleep", "${seconds}"])'`;
}

/**
 * Processes a test starts outside DSH Bridge (`strangers`) and command lines its sessions ran that
 * must not outlive it (`leftovers`): whatever of them still runs is killed (SIGKILL) by the hook
 * given to `cleanUp` (mocha's `after` or `afterEach`).
 */
export function strayProcesses(cleanUp: (hook: () => void) => void): { strangers: ChildProcess[]; leftovers: string[] } {
  const strays = { strangers: [] as ChildProcess[], leftovers: [] as string[] };
  cleanUp(() => {
    for (const child of strays.strangers.splice(0)) child.kill('SIGKILL');
    for (const command of strays.leftovers.splice(0)) for (const pid of processesRunning(command)) process.kill(pid, 'SIGKILL');
  });
  return strays;
}
