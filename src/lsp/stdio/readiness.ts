/**
 * When a language server's answers count (plain Node): readiness from `initialized` and
 * work-done progress.
 *
 * A server is ready once `initialized` was sent, no work-done progress it began is still
 * running, and `settleMs` passed since the later of the two. An answer received before is
 * provisional: typescript-language-server answers from a syntax-only server while the project
 * loads, with progress running.
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';
import type { ProtocolModule } from './protocol';

/** The readiness of one running server. */
export class Readiness {
  /** When `initialized` was sent (ms since the epoch), once it was. */
  private initializedAt: number | undefined;
  /** Work-done progress tokens begun and not ended. */
  private readonly active = new Set<string | number>();
  private lastProgressEnd: number | undefined;

  /**
   * Follow the server's work-done progress: answer `window/workDoneProgress/create` and count
   * each token from its `begin` to its `end`.
   */
  track(connection: Protocol.ProtocolConnection, protocol: ProtocolModule): void {
    connection.onRequest(protocol.WorkDoneProgressCreateRequest.type, ({ token }: Protocol.WorkDoneProgressCreateParams) => {
      connection.onProgress(
        protocol.WorkDoneProgress.type,
        token,
        (value: Protocol.WorkDoneProgressBegin | Protocol.WorkDoneProgressReport | Protocol.WorkDoneProgressEnd) => {
          if (value.kind === 'begin') this.active.add(token);
          else if (value.kind === 'end') {
            this.active.delete(token);
            this.lastProgressEnd = Date.now();
          }
        },
      );
      // The request's result is void: vscode-jsonrpc answers it with `result: null`.
    });
  }

  /** Record that `initialized` was sent now. */
  initialized(): void {
    this.initializedAt = Date.now();
  }

  /** True when the server is ready (see the module comment); `settleMs` in ms. */
  isReady(settleMs: number): boolean {
    if (this.initializedAt === undefined || this.active.size > 0) return false;
    const since = Math.max(this.initializedAt, this.lastProgressEnd ?? 0);
    return Date.now() - since >= settleMs;
  }
}
