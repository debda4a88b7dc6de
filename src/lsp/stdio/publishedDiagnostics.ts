/**
 * Diagnostics a language server pushes (`textDocument/publishDiagnostics`, plain Node): the last
 * publication per document, with when it arrived, and a wake-up for whoever waits for one.
 */
import { uriKey } from '../uri';

/** One document's last publication. */
export interface Publication {
  readonly uri: string;
  readonly diagnostics: readonly unknown[];
  /** When it arrived (ms since the epoch). */
  readonly at: number;
}

/** The publications of one running server, by document (`uriKey`). */
export class PublishedDiagnostics {
  private readonly byKey = new Map<string, Publication>();
  private readonly listeners = new Set<() => void>();

  /** Record a `publishDiagnostics` notification's params; ignored without a valid `uri`. */
  record(params: { uri?: unknown; diagnostics?: unknown }): void {
    if (typeof params?.uri !== 'string') return;
    let key: string;
    try {
      key = uriKey(params.uri);
    } catch {
      return;
    }
    this.byKey.set(key, { uri: params.uri, diagnostics: Array.isArray(params.diagnostics) ? params.diagnostics : [], at: Date.now() });
    this.listeners.forEach((f) => f());
  }

  /** The last publication for `uri`, if any. */
  get(uri: string): Publication | undefined {
    return this.byKey.get(uriKey(uri));
  }

  /** Every document's last publication. */
  all(): Publication[] {
    return [...this.byKey.values()];
  }

  /** Call `listener` on every publication until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
