/**
 * Change-suppressed tmux context notes: remembers, per owner, the last detection it reported, so a
 * consumer can tell the model "same place as before" instead of presenting the location as news.
 *
 * Plain Node: no `vscode` import.
 */
import type { TmuxDetection } from './detect';

/** A detection as reported to one owner: `unchanged` is true when it equals that owner's previous one. */
export type TmuxContextNote = TmuxDetection & { readonly unchanged: boolean };

/**
 * Keeps the last reported detection per owner object. The state is one short string per owner,
 * held in a `WeakMap`: it lives in memory only and is dropped with its owner.
 */
export class TmuxContextNotes<Owner extends object = object> {
  private readonly lastByOwner = new WeakMap<Owner, string>();

  /**
   * Records `detection` as the last one reported to `owner` and returns it with `unchanged: true`
   * when it is identical (every field, including a not-in-pane reason) to the previous one reported
   * to the same owner, `unchanged: false` otherwise (including the first report). Never throws.
   */
  report(owner: Owner, detection: TmuxDetection): TmuxContextNote {
    const key = detectionKey(detection);
    const unchanged = this.lastByOwner.get(owner) === key;
    this.lastByOwner.set(owner, key);
    return { ...detection, unchanged };
  }

  /** Forgets what was reported to `owner`: its next report is `unchanged: false`. */
  forget(owner: Owner): void {
    this.lastByOwner.delete(owner);
  }
}

/** A canonical string for a detection: the same fields in a fixed order, whatever the object's key order. */
function detectionKey(detection: TmuxDetection): string {
  return detection.inPane
    ? JSON.stringify([
        true,
        detection.session,
        detection.windowIndex,
        detection.windowName,
        detection.paneIndex,
        detection.paneId,
        detection.paneTty,
        detection.paneCommand,
      ])
    : JSON.stringify([false, detection.reason]);
}
