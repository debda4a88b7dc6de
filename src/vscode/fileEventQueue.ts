/**
 * File watcher events handled in time slices. VS Code delivers a batch of file events to every
 * listener at once, on the extension host thread: with 10 000 files written, handling each event in
 * the listener (a URI to text, the index's own bookkeeping) held that thread 150 ms in one piece.
 * Here a listener only records the event (constant time); the handler runs for each recorded event
 * afterwards, yielding to the event loop every few milliseconds.
 *
 * Events of the same file coalesce: the newest kind is kept, at the newest place in the order, so a
 * file created and then deleted before its turn is handled once, as deleted.
 */
import type * as vscode from 'vscode';
import { TimeSlice } from '../lsp/timeSlice';

/** How many handlers may wait at once. */
const MAX_IN_FLIGHT = 64;

/** What happened to a file or folder. */
export type FileEventKind = 'changed' | 'deleted';

/**
 * Records file events from watcher listeners ({@link push}, constant time) and runs a handler for
 * each afterwards in slices of a few ms; dispose to drop what waits. See the module comment.
 */
export class FileEventQueue implements vscode.Disposable {
  /** Waiting events by `scheme:path`, in the order they are to be handled. */
  private readonly waiting = new Map<string, { uri: vscode.Uri; kind: FileEventKind }>();
  private draining = false;
  private disposed = false;

  /**
   * @param handle called once per waiting event, in order, with the number of events still waiting
   *   after it (0 for the last of a burst, or a lone event: a folder moved in comes alone); up to 64
   *   calls may wait at once (on work they queue elsewhere, which keeps its own order); an error it
   *   throws or rejects with is passed to `onError`, and the next event is handled.
   * @param onError where a failing handler is reported.
   */
  constructor(
    private readonly handle: (uri: vscode.Uri, kind: FileEventKind, waiting: number) => void | Promise<void>,
    private readonly onError: (uri: vscode.Uri, error: unknown) => void,
  ) {}

  /** Records an event; it is handled after the listener returns, in a slice. */
  push(uri: vscode.Uri, kind: FileEventKind): void {
    if (this.disposed) return;
    const key = `${uri.scheme}:${uri.path}`;
    this.waiting.delete(key);
    this.waiting.set(key, { uri, kind });
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Drops the events not handled yet. */
  dispose(): void {
    this.disposed = true;
    this.waiting.clear();
  }

  private async drain(): Promise<void> {
    const slice = new TimeSlice();
    const inFlight = new Set<Promise<void>>();
    try {
      for (;;) {
        const next = this.waiting.entries().next();
        if (next.done) {
          if (inFlight.size === 0) break;
          await Promise.all(inFlight); // events pushed meanwhile are handled by this drain too
          continue;
        }
        const [key, { uri, kind }] = next.value;
        this.waiting.delete(key);
        const waiting = this.waiting.size;
        // At most MAX_IN_FLIGHT handlers wait at once: the work behind them (an index update) is
        // fed ahead, and what they do after their own awaits comes back in small groups, not as
        // 10 000 continuations in one microtask checkpoint.
        const run = (async () => {
          try {
            await this.handle(uri, kind, waiting);
          } catch (e) {
            this.onError(uri, e);
          }
        })();
        inFlight.add(run);
        void run.then(() => inFlight.delete(run));
        if (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
        await slice.pause();
      }
    } finally {
      this.draining = false;
    }
  }
}
