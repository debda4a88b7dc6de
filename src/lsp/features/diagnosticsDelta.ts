/**
 * What changed between two publications of a whole workspace's diagnostics (plain Node, no
 * `vscode` import): a publisher that republishes after every change (the Problems panel's
 * `md-links` diagnostics) hands over only the files whose diagnostics differ, instead of every
 * file each time. Handing thousands of files to VS Code at once holds the extension host thread
 * (`DiagnosticCollection.set` of 10 000 files: ~200 ms), so the comparison yields every few ms
 * ({@link TimeSlice}) and the caller sends the delta in bounded batches.
 */
import { TimeSlice } from '../timeSlice';
import type { DiagnosticItem } from './types';

/** The files whose diagnostics changed since the last publication. */
export interface DiagnosticsDelta {
  /** Files with new or different diagnostics, each with its whole current list (in the order given). */
  readonly changed: ReadonlyMap<string, DiagnosticItem[]>;
  /** Files that had diagnostics and have none now. */
  readonly cleared: readonly string[];
}

/** The diagnostics published last, by file URI, as comparison keys. */
export class PublishedDiagnostics {
  private published = new Map<string, string>();

  /**
   * Compare `items` (every diagnostic of the workspace now) with the last publication and record
   * them as published. Files are told apart by their `uri` string as given.
   * @throws LspError `cancelled` when `signal` aborts (nothing is recorded then).
   */
  async update(items: readonly DiagnosticItem[], signal?: AbortSignal): Promise<DiagnosticsDelta> {
    const slice = new TimeSlice();
    const byUri = new Map<string, DiagnosticItem[]>();
    for (const d of items) {
      await slice.pause(signal);
      const list = byUri.get(d.uri);
      if (list) list.push(d);
      else byUri.set(d.uri, [d]);
    }
    const next = new Map<string, string>();
    const changed = new Map<string, DiagnosticItem[]>();
    for (const [uri, list] of byUri) {
      await slice.pause(signal);
      const key = JSON.stringify(list.map((d) => [d.range, d.severity, d.message, d.code, d.source]));
      next.set(uri, key);
      if (this.published.get(uri) !== key) changed.set(uri, list);
    }
    const cleared: string[] = [];
    for (const uri of this.published.keys()) {
      await slice.pause(signal);
      if (!next.has(uri)) cleared.push(uri);
    }
    this.published = next;
    return { changed, cleared };
  }

  /** Forget what was published (e.g. the collection was cleared): the next update reports every file. */
  reset(): void {
    this.published = new Map();
  }
}
