/**
 * The time limit of one navigation call on VS Code's language features (plain Node): short while
 * nothing shows that the language has support at all (a file type no extension answers for is
 * "not available" after `readyMs`), longer once something does (an extension activating for the
 * language, a "(loading...)" hover, document symbols, any answer), because a language that is
 * loading its project in a freshly opened window on a busy machine may need tens of seconds and its
 * first answer must still be the whole one.
 */

/** Default `readyMs`: 20 s. */
export const READY_TIMEOUT_MS = 20_000;
/** Default `loadingMs`: 90 s (a fresh window's first TypeScript call took up to 44 s on a machine with load average 25 on 2 cores). */
export const LOADING_TIMEOUT_MS = 90_000;

/** See the module comment. Create one per call, when the call starts. */
export class CallLimit {
  private supported = false;
  private readonly started = Date.now();

  /**
   * @param readyMs limit (ms) while nothing showed support.
   * @param loadingMs limit (ms) once something did; at least `readyMs`.
   */
  constructor(
    readonly readyMs = READY_TIMEOUT_MS,
    readonly loadingMs = LOADING_TIMEOUT_MS,
  ) {}

  /** Record that the language showed it has support (the longer limit applies from now on). */
  support(): void {
    this.supported = true;
  }

  /** True once {@link support} was called. */
  get hasSupport(): boolean {
    return this.supported;
  }

  /** The limit in force (ms from the start of the call). */
  get ms(): number {
    return this.supported ? Math.max(this.loadingMs, this.readyMs) : this.readyMs;
  }

  /** The deadline in force (ms since the epoch), for `askUntilSettled`'s `deadline`. */
  readonly deadline = (): number => this.started + this.ms;

  /** Time since the call started (ms). */
  elapsed(): number {
    return Date.now() - this.started;
  }
}
