/**
 * A fixed number of slots shared by several callers (keys), handed out fairly: each key runs at
 * most `perKeyRunning` jobs at once and has at most `perKeyInFlight` running or waiting; past that
 * a job is refused at once. A free slot goes to the waiting job of the key that runs the fewest,
 * the oldest first among equals, so one key that keeps every slot busy delays others by one job's
 * run at most (plus the time its slot takes to free). Plain Node, no `vscode` import.
 */

/** Why a job was refused: its key already has `perKeyInFlight` jobs running or waiting. */
export class SlotsFullError extends Error {
  constructor(readonly inFlight: number) {
    super(`${inFlight} jobs in flight`);
    this.name = 'SlotsFullError';
  }
}

interface Waiting {
  key: object;
  start: () => void;
}

/** Slots shared by keys; see the module comment. */
export class FairSlots {
  private running = 0;
  private readonly runningOf = new Map<object, number>();
  private readonly inFlightOf = new Map<object, number>();
  private readonly waiting: Waiting[] = [];

  /**
   * @param size slots in all (jobs running at once)
   * @param perKeyRunning jobs one key runs at once
   * @param perKeyInFlight jobs one key may have running or waiting; past it `run` refuses
   */
  constructor(
    readonly size: number,
    readonly perKeyRunning: number,
    readonly perKeyInFlight: number,
  ) {}

  /** Jobs of `key` running or waiting now. */
  inFlight(key: object): number {
    return this.inFlightOf.get(key) ?? 0;
  }

  /**
   * Runs `work` once a slot is free for `key`, and frees the slot however it settles.
   * @param counted the job counts in `key`'s jobs in flight and may be refused (default); false: it
   *   waits for its slot whatever `key` has in flight, and is not counted there.
   * @throws SlotsFullError at once (the promise rejects, `work` never runs) when `counted` and `key`
   *   already has `perKeyInFlight` counted jobs running or waiting; whatever `work` throws.
   */
  async run<T>(key: object, work: () => Promise<T>, counted = true): Promise<T> {
    const inFlight = this.inFlight(key);
    if (counted && inFlight >= this.perKeyInFlight) throw new SlotsFullError(inFlight);
    if (counted) this.inFlightOf.set(key, inFlight + 1);
    try {
      await new Promise<void>((start) => {
        this.waiting.push({ key, start });
        this.next();
      });
      try {
        return await work();
      } finally {
        this.running--;
        this.add(this.runningOf, key, -1);
        this.next();
      }
    } finally {
      if (counted) this.add(this.inFlightOf, key, -1);
    }
  }

  /** Starts waiting jobs while slots are free: the key running the fewest first, the oldest among equals. */
  private next(): void {
    while (this.running < this.size) {
      let pick = -1;
      for (let i = 0; i < this.waiting.length; i++) {
        const runs = this.runningOf.get(this.waiting[i]!.key) ?? 0;
        if (runs >= this.perKeyRunning) continue;
        if (pick < 0 || runs < (this.runningOf.get(this.waiting[pick]!.key) ?? 0)) pick = i;
      }
      if (pick < 0) return;
      const [job] = this.waiting.splice(pick, 1);
      this.running++;
      this.add(this.runningOf, job!.key, 1);
      job!.start();
    }
  }

  private add(map: Map<object, number>, key: object, by: number): void {
    const value = (map.get(key) ?? 0) + by;
    if (value > 0) map.set(key, value);
    else map.delete(key);
  }
}
