/**
 * The one owner of everything an activation of the extension starts (rust-analyzer's `Ctx` idea;
 * plain Node, no `vscode` import): the composition root hands it each part as it makes it, and
 * nothing else keeps a list. `context.subscriptions` holds only this owner.
 *
 * Ending (`end(budgetMs)`, which `deactivate` awaits, or `dispose()`, which VS Code calls after
 * it): the parts are ended in the reverse of the order they were handed over, in two passes.
 * First every part whose end takes time (`ownAsync`: sessions to close, language servers to stop,
 * the MCP endpoint's socket, worker threads to exit) is started, newest first, and they are awaited
 * together, within the budget; then every other part (`own`: registrations, the log channel) is
 * disposed, newest first, so what the first pass does may still log. A part that throws or rejects
 * does not stop the others.
 */
import type { Disposable } from './disposable';
import { errorMessage } from './errorMessage';

/** A part whose end takes time: `dispose()` returns a promise that settles once it has ended. */
export interface AsyncDisposable {
  dispose(): Promise<unknown>;
}

/** See the module comment. */
export class Lifetimes implements Disposable {
  private readonly parts: Array<{ part: Disposable | AsyncDisposable; async: boolean }> = [];
  private ending: Promise<void> | undefined;

  /**
   * @param budgetMs how long `dispose()` lets the first pass take before the second (ms); `end`
   *   takes its own.
   * @param report where a part that failed to end is reported (its error, which part by index).
   */
  constructor(
    private readonly budgetMs: number,
    private readonly report: (message: string) => void = () => undefined,
  ) {}

  /** Owns `part`, ended in the second pass; returns it. A part handed over after the end is disposed at once. */
  own<T extends Disposable>(part: T): T {
    if (this.ending) part.dispose();
    else this.parts.push({ part, async: false });
    return part;
  }

  /** Owns `part`, whose end takes time, ended in the first pass and awaited; returns it. */
  ownAsync<T extends AsyncDisposable>(part: T): T {
    if (this.ending) void part.dispose().catch(() => undefined);
    else this.parts.push({ part, async: true });
    return part;
  }

  /** Owns an end that takes time, given as a function (ended in the first pass). */
  onEnd(end: () => Promise<unknown>): void {
    this.ownAsync({ dispose: end });
  }

  /** Parts owned and not ended. */
  get size(): number {
    return this.ending ? 0 : this.parts.length;
  }

  /**
   * Ends every part (see the module comment); the first pass is awaited for at most `budgetMs`
   * (ms; the owner's budget unless given). Resolves once the second pass ran; later calls return
   * the first call's promise. Never rejects.
   */
  end(budgetMs = this.budgetMs): Promise<void> {
    this.ending ??= this.run(budgetMs);
    return this.ending;
  }

  /** Ends every part within the owner's budget, without waiting (VS Code disposes `context.subscriptions` so). */
  dispose(): void {
    void this.end();
  }

  private async run(budgetMs: number): Promise<void> {
    const parts = this.parts.splice(0).reverse();
    const started: Promise<unknown>[] = [];
    for (const [index, { part, async }] of parts.entries()) {
      if (!async) continue;
      let ended: Promise<unknown>;
      try {
        ended = Promise.resolve(part.dispose());
      } catch (error) {
        ended = Promise.reject(error);
      }
      started.push(ended.catch((error: unknown) => this.failed(parts.length - 1 - index, error)));
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([Promise.allSettled(started), budget]);
    clearTimeout(timer);
    for (const [index, { part, async }] of parts.entries()) {
      if (async) continue;
      try {
        void part.dispose();
      } catch (error) {
        this.failed(parts.length - 1 - index, error);
      }
    }
  }

  private failed(index: number, error: unknown): void {
    this.report(`part ${index} (in the order owned, from 0) did not end cleanly: ${errorMessage(error)}`);
  }
}
