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

/** What happened to a file or folder. */
export type FileEventKind = 'changed' | 'deleted';

export class FileEventQueue implements vscode.Disposable {
  /** Waiting events by `scheme:path`, in the order they are to be handled. */
  private readonly waiting = new Map<string, { uri: vscode.Uri; kind: FileEventKind }>();
  private draining = false;
  private disposed = false;

  /**
   * @param handle called once per waiting event, in order, the next after the promise it returns
   *   settles; an error it throws or rejects with is passed to `onError`, and the next event is
   *   handled.
   * @param onError where a failing handler is reported.
   */
  constructor(
    private readonly handle: (uri: vscode.Uri, kind: FileEventKind) => void | Promise<void>,
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
    try {
      for (;;) {
        const next = this.waiting.entries().next();
        if (next.done) return;
        const [key, { uri, kind }] = next.value;
        this.waiting.delete(key);
        try {
          // Awaited: what the handler does after its own awaits (an index update's follow-up)
          // runs inside the slice too, not as 10 000 continuations in one microtask checkpoint.
          await this.handle(uri, kind);
        } catch (e) {
          this.onError(uri, e);
        }
        await slice.pause();
      }
    } finally {
      this.draining = false;
    }
  }
}
