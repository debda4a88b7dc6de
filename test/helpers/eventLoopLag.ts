// Event-loop lag of the thread this runs on: a timer meant to tick every `tickMs` records the
// longest gap between two ticks (and between the last tick and stop()). A gap far above `tickMs`
// means something held the thread that long. Shared by unit tests, integration tests (in the
// extension host) and benchmarks, so it imports nothing but Node.

/** A running lag probe; `stop()` ends it and returns the figures in ms. */
export interface LagProbe {
  stop(): { maxGapMs: number; p99GapMs: number; ticks: number };
}

/** Start a probe ticking every `tickMs` ms (default 10). */
export function startLagProbe(tickMs = 10): LagProbe {
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, tickMs);
  return {
    stop() {
      clearInterval(timer);
      gaps.push(performance.now() - last);
      const sorted = [...gaps].sort((a, b) => a - b);
      return { maxGapMs: sorted[sorted.length - 1]!, p99GapMs: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!, ticks: gaps.length };
    },
  };
}

/** Run `work` under a probe; its result and the probe's figures. */
export async function withLagProbe<T>(work: () => Promise<T>, tickMs = 10): Promise<{ result: T; maxGapMs: number; p99GapMs: number; ticks: number }> {
  const probe = startLagProbe(tickMs);
  try {
    const result = await work();
    return { result, ...probe.stop() };
  } catch (e) {
    probe.stop();
    throw e;
  }
}
