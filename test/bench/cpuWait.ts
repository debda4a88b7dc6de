/**
 * How long the threads a tool call needs waited for a CPU, for the in-host benchmark: a call that
 * takes 300 ms while neither the extension host thread nor the window's main thread was busy for
 * long was waiting for a core (both cores taken by the programs a session runs, the window's
 * drawing, DSH Bridge's workers), not for DSH Bridge's code.
 *
 * Linux only, from /proc: `/proc/<pid>/task/<tid>/schedstat` holds a thread's time on a CPU and its
 * time runnable but waiting on a runqueue, both in ns (see the kernel's
 * Documentation/scheduler/sched-stats.rst); the first line of `/proc/stat` holds all CPUs' time
 * by state, in clock ticks (proc(5)). Elsewhere every snapshot is undefined.
 *
 * The threads: the extension host's main thread (this process's, which runs the benchmark) and the
 * main threads of the renderer processes (a `--type=renderer` argument: the workbench's renderer,
 * Chromium's or Electron's), found when the probe is made. On a desktop, other Chromium-based
 * programs' renderers count too; the benchmark's own window is the busy one.
 */
import * as fs from 'node:fs';
import { safeReaddir } from '../../src/proc/sessions';
import { readStat } from '../../src/proc/stat';
import { mainThreadSchedstat } from '../helpers/eventLoopLag';

/** Run-queue waits (ns) of the watched threads and the CPUs' time (ticks) at one moment. */
export interface CpuSnapshot {
  /** Time the extension host's main thread waited to run since it started. */
  hostWaitNs: number;
  /** The same, of each renderer main thread by pid (one that exited is left out). */
  windowWaitNs: Map<number, number>;
  /** CPU time (user and system) of the whole extension host process so far: every thread, workers and garbage collection included. */
  hostCpuMs: number;
  /** The same of each renderer process by pid, from its clock ticks (10 ms each). */
  windowCpuMs: Map<number, number>;
  /** All CPUs' idle ticks (idle and iowait). */
  idleTicks: number;
  /** All CPUs' ticks in user, nice, system, idle, iowait, irq, softirq and steal time (guest time is counted in user and nice already). */
  totalTicks: number;
}

/** What happened between two snapshots: waits in ms, the CPUs' idle share in percent (0–100). */
export interface CpuWait {
  hostWaitMs: number;
  /** The longest wait of one renderer main thread (the workbench's, the others being idle); undefined without a renderer. */
  windowWaitMs: number | undefined;
  /** undefined when no clock tick passed (ticks are 10 ms apart). */
  idlePercent: number | undefined;
  /** CPU time the extension host process used, all its threads. */
  hostCpuMs: number;
  /** CPU time the renderer processes used, all their threads. */
  windowCpuMs: number;
}

export class CpuWaitProbe {
  private readonly renderers: number[];

  constructor() {
    this.renderers = process.platform === 'linux' ? rendererPids() : [];
  }

  /** The waits and CPU times now; undefined where /proc cannot tell (not Linux). */
  snapshot(): CpuSnapshot | undefined {
    if (process.platform !== 'linux') return undefined;
    try {
      const cpu = fs.readFileSync('/proc/stat', 'latin1').slice(0, 300).split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
      const windowWaitNs = new Map<number, number>();
      const windowCpuMs = new Map<number, number>();
      for (const pid of this.renderers) {
        const wait = runQueueWait(pid);
        if (wait !== undefined) windowWaitNs.set(pid, wait);
        const stat = readStat(pid);
        if (stat) windowCpuMs.set(pid, (stat.utime + stat.stime) * 10);
      }
      const hostWaitNs = runQueueWait(process.pid);
      if (hostWaitNs === undefined) return undefined;
      const host = process.cpuUsage();
      const hostCpuMs = (host.user + host.system) / 1000;
      return {
        hostWaitNs,
        hostCpuMs,
        windowWaitNs,
        windowCpuMs,
        idleTicks: (cpu[3] ?? 0) + (cpu[4] ?? 0),
        totalTicks: cpu.reduce((a, b) => a + b, 0),
      };
    } catch {
      return undefined; // no /proc/stat
    }
  }

  /** What happened from `a` to `b` (either undefined: undefined). */
  static between(a: CpuSnapshot | undefined, b: CpuSnapshot | undefined): CpuWait | undefined {
    if (!a || !b) return undefined;
    const ticks = b.totalTicks - a.totalTicks;
    const windowWaits = [...b.windowWaitNs].filter(([pid]) => a.windowWaitNs.has(pid)).map(([pid, ns]) => ns - a.windowWaitNs.get(pid)!);
    let windowCpuMs = 0;
    for (const [pid, used] of b.windowCpuMs) windowCpuMs += used - (a.windowCpuMs.get(pid) ?? used);
    return {
      hostCpuMs: b.hostCpuMs - a.hostCpuMs,
      windowCpuMs,
      hostWaitMs: (b.hostWaitNs - a.hostWaitNs) / 1e6,
      windowWaitMs: windowWaits.length > 0 ? Math.max(...windowWaits) / 1e6 : undefined,
      idlePercent: ticks > 0 ? (100 * (b.idleTicks - a.idleTicks)) / ticks : undefined,
    };
  }
}

/** `wait` as the benchmark prints it: "waited for a CPU: extension host thread 25 ms, window 150 ms; CPUs idle 0 %". */
export function cpuWaitText(wait: CpuWait): string {
  const window = wait.windowWaitMs === undefined ? '' : `, window ${wait.windowWaitMs.toFixed(0)} ms`;
  const idle = wait.idlePercent === undefined ? '' : `; CPUs idle ${wait.idlePercent.toFixed(0)} %`;
  return `waited for a CPU: extension host thread ${wait.hostWaitMs.toFixed(0)} ms${window}${idle}`;
}

/** What a scenario used, as the benchmark prints it: "CPU used: extension host 3.4 s, window 0.9 s; CPUs idle 6 %". */
export function cpuUseText(wait: CpuWait): string {
  const idle = wait.idlePercent === undefined ? '' : `; CPUs idle ${wait.idlePercent.toFixed(0)} %`;
  return `CPU used: extension host ${(wait.hostCpuMs / 1000).toFixed(1)} s, window ${(wait.windowCpuMs / 1000).toFixed(1)} s${idle}`;
}

/** The main thread's run-queue wait (ns) of process `pid`; undefined once it exited. */
function runQueueWait(pid: number): number | undefined {
  return mainThreadSchedstat(pid)?.waitNs;
}

/** Pids of the processes with a `--type=renderer` argument that this process may read. */
function rendererPids(): number[] {
  const pids: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // Chromium rewrites its command line: the arguments can be separated by spaces, not NULs.
      if (/[\0 ]--type=renderer(?:[\0 ]|$)/.test(fs.readFileSync(`/proc/${name}/cmdline`, 'latin1'))) pids.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}
