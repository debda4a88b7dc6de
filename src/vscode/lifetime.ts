/**
 * The owner of everything the extension starts whose end takes time (rust-analyzer's `Ctx` idea).
 * A feature's registration returns a Disposable, which the composition root hands to
 * `context.subscriptions` (VS Code disposes those after `deactivate`, without waiting), or its
 * asynchronous teardown (terminal sessions, the MCP endpoint, configured language servers) is
 * registered here with {@link ExtensionLifetime.onShutdown}; `deactivate` awaits them all through
 * {@link ExtensionLifetime.shutdown}.
 */

/** The extension's asynchronous teardowns; made by `activate`, run by `deactivate`. */
export class ExtensionLifetime {
  private teardowns: Array<() => Promise<void>> = [];

  /**
   * Owns something whose end takes time (processes to stop, a socket to remove): `teardown` runs
   * in {@link shutdown}, at the same time as every other teardown, and is awaited.
   */
  onShutdown(teardown: () => Promise<void>): void {
    this.teardowns.push(teardown);
  }

  /**
   * Runs every teardown at once and resolves when all have settled (one that rejects or throws
   * does not stop the others) or after `budgetMs` (ms), whichever comes first. Later calls run
   * nothing.
   */
  async shutdown(budgetMs: number): Promise<void> {
    const steps = this.teardowns;
    this.teardowns = [];
    if (steps.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)));
    await Promise.race([Promise.allSettled(steps.map(async (step) => step())), budget]);
    clearTimeout(timer);
  }
}
