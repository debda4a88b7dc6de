// Event-loop lag of the thread this runs on: a timer meant to tick every `tickMs` records the
// longest gap between two ticks (and between the last tick and stop()). A gap far above `tickMs`
// means the thread was held that long, or that it waited that long for a CPU on a busy machine.
// On Linux the probe tells the two apart: at each tick it reads the main thread's run-queue wait
// from `/proc/self/task/<pid>/schedstat` (second field, ns: time runnable but not running; see the
// kernel's Documentation/scheduler/sched-stats.rst), and a gap's "held" time is the gap less that
// wait: what the thread's own work (code, garbage collection, blocking calls) took. Shared by unit
// tests, integration tests (in the extension host) and benchmarks, so it imports nothing but Node.
import * as fs from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

/** What a probe saw, in ms. */
export interface LagFigures {
  /** The longest gap between two ticks (or the last tick and stop()). */
  maxGapMs: number;
  p99GapMs: number;
  ticks: number;
  /**
   * The longest time the thread was held by its own work: per gap, the gap less the time the thread
   * waited for a CPU during it. Equal to `maxGapMs` where the wait cannot be read (not Linux, or a worker thread).
   */
  maxHeldMs: number;
  /** How long the thread waited for a CPU during the longest gap; undefined where that cannot be read. */
  waitInMaxGapMs: number | undefined;
}

/** A running lag probe; `stop()` ends it and returns the figures. */
export interface LagProbe {
  stop(): LagFigures;
}

/**
 * The main thread of process `pid` so far, from `/proc/<pid>/task/<pid>/schedstat` (Linux): its
 * time on a CPU and its time runnable but waiting on a run queue, both in ns. Undefined elsewhere,
 * or once the process exited.
 */
export function mainThreadSchedstat(pid = process.pid): { runNs: number; waitNs: number } | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'latin1').split(' ');
    return { runNs: Number(run), waitNs: Number(wait) };
  } catch {
    return undefined;
  }
}

/** This thread's run-queue wait so far in ns, undefined where it cannot be read (a worker thread is not the main thread). */
function runQueueWaitNs(): number | undefined {
  return isMainThread ? mainThreadSchedstat()?.waitNs : undefined;
}

/** Start a probe ticking every `tickMs` ms (default 10). */
export function startLagProbe(tickMs = 10): LagProbe {
  const gaps: number[] = [];
  let maxHeldMs = 0;
  let maxGapMs = 0;
  let waitInMaxGapMs: number | undefined;
  let last = performance.now();
  let lastWaitNs = runQueueWaitNs();
  const tick = () => {
    const now = performance.now();
    const waitNs = runQueueWaitNs();
    const gap = now - last;
    const waitMs = waitNs !== undefined && lastWaitNs !== undefined ? (waitNs - lastWaitNs) / 1e6 : undefined;
    gaps.push(gap);
    maxHeldMs = Math.max(maxHeldMs, gap - Math.min(gap, waitMs ?? 0));
    if (gap >= maxGapMs) {
      maxGapMs = gap;
      waitInMaxGapMs = waitMs;
    }
    last = now;
    lastWaitNs = waitNs;
  };
  const timer = setInterval(tick, tickMs);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const sorted = [...gaps].sort((a, b) => a - b);
      return {
        maxGapMs,
        p99GapMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
        ticks: gaps.length,
        maxHeldMs,
        waitInMaxGapMs,
      };
    },
  };
}

/** `figures` as tests print them: "held 120 ms at once (longest gap 300 ms, of which 180 ms waiting for a CPU)". */
export function heldText(figures: LagFigures): string {
  const wait = figures.waitInMaxGapMs === undefined ? '' : `, of which ${figures.waitInMaxGapMs.toFixed(0)} ms waiting for a CPU`;
  return `held ${figures.maxHeldMs.toFixed(0)} ms at once (longest gap ${figures.maxGapMs.toFixed(0)} ms${wait}; p99 gap ${figures.p99GapMs.toFixed(0)} ms over ${figures.ticks} ticks)`;
}

/** Run `work` under a probe; its result and the probe's figures. */
export async function withLagProbe<T>(work: () => Promise<T>, tickMs = 10): Promise<{ result: T } & LagFigures> {
  const probe = startLagProbe(tickMs);
  try {
    const result = await work();
    return { result, ...probe.stop() };
  } catch (e) {
    probe.stop();
    throw e;
  }
}

/**
 * The longest gap (ms) between ticks of a `tickMs` interval while `work` runs, less the garbage
 * collector's pauses within it (a collection of the test process's heap, grown by what ran before,
 * is not the work's): how long the event loop was held by the work. Answers `work`'s value too.
 */
export async function longestStall<T>(work: () => Promise<T>, tickMs = 5): Promise<{ value: T; stallMs: number }> {
  const gaps: [number, number][] = [];
  const pauses: [number, number][] = [];
  const observer = new PerformanceObserver((list) =>
    list.getEntries().forEach((e) => pauses.push([e.startTime, e.startTime + e.duration])),
  );
  observer.observe({ entryTypes: ['gc'] });
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push([last, now]);
    last = now;
  }, tickMs);
  try {
    const value = await work();
    gaps.push([last, performance.now()]);
    clearInterval(timer);
    // GC entries are delivered after the fact.
    await new Promise((r) => setTimeout(r, 50));
    const held = ([from, to]: [number, number]) =>
      to - from - pauses.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
    return { value, stallMs: Math.max(...gaps.map(held)) };
  } finally {
    clearInterval(timer);
    observer.disconnect();
  }
}
