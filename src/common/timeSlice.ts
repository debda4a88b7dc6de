/**
 * Long loops on a shared thread in slices (plain Node, no `vscode` import): a loop calls
 * {@link TimeSlice.pause} each step, which yields to the event loop (`setImmediate`, so timers and
 * I/O run) once `budgetMs` of work passed since the last yield. Several loops may share one slice
 * (e.g. concurrent folder visits): they then share the budget, all waiting for the same turn of the
 * event loop once it is spent.
 */

/** Default work between two yields, in ms. */
export const SLICE_MS = 8;

/** A budget of synchronous work between yields (see the module comment). */
export class TimeSlice {
  private since = performance.now();
  private turn: Promise<void> | undefined;

  /** @param budgetMs synchronous work between two yields (ms). */
  constructor(private readonly budgetMs = SLICE_MS) {}

  /** True when the next {@link pause} yields: the budget is spent, or a yield is under way. */
  due(): boolean {
    return this.turn !== undefined || performance.now() - this.since >= this.budgetMs;
  }

  /**
   * Resolves at once while the budget lasts, else after the next turn of the event loop (a new
   * budget starts then, for every loop sharing this slice). Never rejects.
   */
  async pause(): Promise<void> {
    if (!this.due()) return;
    this.turn ??= new Promise<void>((r) =>
      setImmediate(() => {
        this.turn = undefined;
        this.since = performance.now();
        r();
      }),
    );
    await this.turn;
  }
}
