/**
 * Document sync with a language server (plain Node): a document is open on the server
 * (`textDocument/didOpen`, version 1, text read from disk) while at least one request uses it and
 * closed (`didClose`) after the last, reference-counted between concurrent requests.
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';
import type { ProtocolModule } from './protocol';

/** The documents open on one server, with how many requests use each. */
export class OpenDocuments {
  private readonly open = new Map<string, number>();

  /** @param closed true once the connection is gone (nothing is sent then). */
  constructor(
    private readonly connection: Protocol.ProtocolConnection,
    private readonly protocol: ProtocolModule,
    private readonly closed: () => boolean,
  ) {}

  /** Open `uri` for one more request (`didOpen` for the first). */
  async acquire(uri: string, languageId: string, text: string): Promise<void> {
    const n = this.open.get(uri) ?? 0;
    this.open.set(uri, n + 1);
    if (n === 0)
      await this.connection.sendNotification(this.protocol.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId, version: 1, text },
      });
  }

  /** One request is done with `uri` (`didClose` after the last; nothing when the server went away). */
  async release(uri: string): Promise<void> {
    const n = (this.open.get(uri) ?? 1) - 1;
    if (n > 0) {
      this.open.set(uri, n);
      return;
    }
    this.open.delete(uri);
    if (this.closed()) return;
    try {
      await this.connection.sendNotification(this.protocol.DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    } catch {
      // the server went away; nothing to close
    }
  }
}
