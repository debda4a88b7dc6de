/**
 * The client side of the protocol that a language server may call (plain Node): DSH Bridge
 * answers what servers commonly ask and declines what it does not do (no edits, no documents
 * shown, no configuration of its own).
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';
import type { PublishedDiagnostics } from './publishedDiagnostics';
import type { Log } from '../../common/log';

/** What the handlers answer with and report to. */
export interface ClientHandlerContext {
  /** The server's id, for log lines. */
  readonly id: string;
  /** The workspace folder (a `file:` URI) and its name, for `workspace/workspaceFolders`. */
  readonly workspaceFolder: { readonly uri: string; readonly name: string };
  readonly log: Log;
  /** Where `textDocument/publishDiagnostics` goes. */
  readonly diagnostics: PublishedDiagnostics;
}

/**
 * Install the handlers on `connection`: `workspace/configuration` (null for every item),
 * `workspace/workspaceFolders` (the one folder), capability (un)registration and
 * `window/showMessageRequest` (null), `window/showDocument` (not shown), `workspace/applyEdit`
 * (not applied); `window/showMessage` is logged, `publishDiagnostics` recorded, log messages,
 * telemetry and connection errors dropped.
 */
export function installClientHandlers(connection: Protocol.ProtocolConnection, ctx: ClientHandlerContext): void {
  connection.onRequest('workspace/configuration', (params: { items?: unknown[] }) => (params.items ?? []).map(() => null));
  connection.onRequest('workspace/workspaceFolders', () => [ctx.workspaceFolder]);
  connection.onRequest('client/registerCapability', () => null);
  connection.onRequest('client/unregisterCapability', () => null);
  connection.onRequest('window/showMessageRequest', () => null);
  connection.onRequest('window/showDocument', () => ({ success: false }));
  connection.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'DSH Bridge applies no edits' }));
  connection.onNotification('window/logMessage', () => undefined);
  connection.onNotification('window/showMessage', (p: { message?: string }) => ctx.log.info(`lsp '${ctx.id}': ${p.message ?? ''}`));
  connection.onNotification('textDocument/publishDiagnostics', (p: { uri?: unknown; diagnostics?: unknown }) => ctx.diagnostics.record(p));
  connection.onNotification('telemetry/event', () => undefined);
  connection.onError(() => undefined);
}
