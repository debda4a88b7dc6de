/**
 * The readiness poll of a send, backed off while nothing changes: a long build or a `sleep` need
 * not be looked at 40 times a second. The delay starts at the base interval (dsh.terminal
 * pollIntervalMs), doubles after each look that saw no change up to a ceiling, and returns to the
 * base as soon as output arrives or a look saw a change. A look may also name when it must run
 * next at the latest (a deadline such as the quiet threshold), which shortens the delay.
 */

/** Ceiling of the backed-off poll interval (ms) unless the base interval is longer. */
export const MAX_POLL_INTERVAL_MS = 500;

/** What one look reports to the loop. */
export interface LookOutcome {
  /** The look saw a change (or waits to confirm one): look again after the base interval. */
  changed: boolean;
  /** The look must run again within this many ms at the latest (a deadline it waits for). */
  dueInMs?: number;
}

/** The delays between looks, without timers: `next` after each look, `reset` on output. */
export class PollBackoff {
  private delay: number;
  readonly maxMs: number;

  /**
   * @param baseMs the shortest delay (ms), used at the start and after a change.
   * @param maxMs the ceiling (ms); at least `baseMs`.
   */
  constructor(
    readonly baseMs: number,
    maxMs = MAX_POLL_INTERVAL_MS,
  ) {
    this.maxMs = Math.max(baseMs, maxMs);
    this.delay = baseMs;
  }

  /** The delay before the next look (ms), given what the last look saw. */
  next(outcome: LookOutcome): number {
    this.delay = outcome.changed ? this.baseMs : Math.min(this.maxMs, this.delay * 2);
    return outcome.dueInMs === undefined ? this.delay : Math.max(1, Math.min(this.delay, Math.ceil(outcome.dueInMs)));
  }

  /** Back to the base delay (output arrived); returns it. */
  reset(): number {
    this.delay = this.baseMs;
    return this.delay;
  }
}

/**
 * Runs `look` repeatedly with {@link PollBackoff} delays until stopped. `poke()` (output arrived)
 * brings the next look to at most the base delay from now. Counts its looks.
 */
export class PollLoop {
  private readonly backoff: PollBackoff;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private dueAt = 0;
  private stopped = false;
  /** Looks run so far. */
  looks = 0;

  constructor(
    baseMs: number,
    private readonly look: () => LookOutcome | undefined,
    maxMs = MAX_POLL_INTERVAL_MS,
  ) {
    this.backoff = new PollBackoff(baseMs, maxMs);
    this.schedule(baseMs);
  }

  /** Output arrived: the next look runs within the base delay. */
  poke(): void {
    if (this.stopped) return;
    const base = this.backoff.reset();
    if (this.dueAt - Date.now() > base) this.schedule(base);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.dueAt = Date.now() + ms;
    this.timer = setTimeout(() => {
      this.looks++;
      const outcome = this.look();
      if (!this.stopped && outcome) this.schedule(this.backoff.next(outcome));
    }, ms);
  }
}
