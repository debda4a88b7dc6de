/**
 * Crash accounting for a language server (plain Node): restart with bounded exponential backoff,
 * and give up after repeated crashes.
 */

/** Options of {@link CrashPolicy} (all in ms or counts). */
export interface CrashPolicyOptions {
  /** Crashes tolerated within `windowMs`; the next one marks the server failed. Default 3. */
  readonly maxRestarts?: number;
  /** Sliding window (ms) crashes are counted in. Default 180000 (3 minutes). */
  readonly windowMs?: number;
  /** Delay (ms) before the first restart; doubles per crash in the window. Default 500. */
  readonly baseDelayMs?: number;
  /** Upper bound (ms) of the delay. Default 8000. */
  readonly maxDelayMs?: number;
}

/** What {@link CrashPolicy.crashed} decides: restart after `delayMs`, or give up. */
export type CrashDecision =
  | { readonly restart: true; readonly delayMs: number; readonly crashes: number }
  | { readonly restart: false; readonly crashes: number };

/**
 * Counts crashes in a sliding window. After crash n (1-based) within `windowMs` it allows a restart
 * after `min(baseDelayMs * 2^(n-1), maxDelayMs)` while n <= `maxRestarts`; crash `maxRestarts + 1`
 * within the window means "failed" (and stays failed until {@link reset}).
 */
export class CrashPolicy {
  readonly maxRestarts: number;
  readonly windowMs: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  private crashTimes: number[] = [];
  private failedAt: number | undefined;

  constructor(options: CrashPolicyOptions = {}) {
    this.maxRestarts = options.maxRestarts ?? 3;
    this.windowMs = options.windowMs ?? 180_000;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 8000;
  }

  /** Record a crash at `now` (ms since epoch) and decide. */
  crashed(now: number = Date.now()): CrashDecision {
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.windowMs);
    this.crashTimes.push(now);
    const n = this.crashTimes.length;
    if (this.failedAt !== undefined || n > this.maxRestarts) {
      this.failedAt ??= now;
      return { restart: false, crashes: n };
    }
    return { restart: true, delayMs: Math.min(this.baseDelayMs * 2 ** (n - 1), this.maxDelayMs), crashes: n };
  }

  /** True once the server crashed more than `maxRestarts` times within the window. */
  get failed(): boolean {
    return this.failedAt !== undefined;
  }

  /** Crashes within the window ending at `now`. */
  recentCrashes(now: number = Date.now()): number {
    return this.crashTimes.filter((t) => now - t < this.windowMs).length;
  }

  /** Forget every crash (a new configuration, or the user asked to retry). */
  reset(): void {
    this.crashTimes = [];
    this.failedAt = undefined;
  }
}
