/**
 * One running language server (plain Node): its guarded process, the protocol connection over its
 * stdin/stdout, and what DSH Bridge knows of it (readiness, open documents, pushed diagnostics,
 * capabilities); requests with cancellation; the orderly end.
 */
import type * as Protocol from 'vscode-languageserver-protocol/node';
import { raceAbort } from '../cancellation';
import { installClientHandlers } from './clientHandlers';
import { OpenDocuments } from './documentSync';
import type { ProtocolModule } from './protocol';
import { PublishedDiagnostics } from './publishedDiagnostics';
import { Readiness } from './readiness';
import type { GuardedProcess } from './watchdog';
import type { Log } from '../../common/log';

/** A running server; created by the lifecycle (`./lifecycle.ts`) once its process is spawned. */
export class ServerSession {
  readonly connection: Protocol.ProtocolConnection;
  readonly readiness = new Readiness();
  readonly documents: OpenDocuments;
  readonly diagnostics = new PublishedDiagnostics();
  /** What the server said it can do (`InitializeResult.capabilities`), once initialized. */
  capabilities: Record<string, unknown> | undefined;
  /** True once the connection closed or the process exited. */
  closed = false;
  /** True once DSH Bridge is ending it (an exit then is no crash). */
  ending = false;

  /**
   * Connect to `process` and listen: work-done progress, the client handlers
   * (`./clientHandlers.ts`), and `closed` on the connection's close.
   */
  constructor(
    readonly process: GuardedProcess,
    private readonly protocol: ProtocolModule,
    ctx: { readonly id: string; readonly workspaceFolder: { readonly uri: string; readonly name: string }; readonly log: Log },
  ) {
    const P = protocol;
    this.connection = P.createProtocolConnection(
      new P.StreamMessageReader(process.child.stdout!),
      new P.StreamMessageWriter(process.child.stdin!),
    );
    this.documents = new OpenDocuments(this.connection, protocol, () => this.closed);
    this.readiness.track(this.connection, protocol);
    installClientHandlers(this.connection, { ...ctx, diagnostics: this.diagnostics });
    this.connection.onClose(() => (this.closed = true));
    this.connection.listen();
  }

  /** True when the server's capabilities announce `name` (present and not `false`). */
  hasCapability(name: string): boolean {
    const v = this.capabilities?.[name];
    return v !== undefined && v !== null && v !== false;
  }

  /**
   * Run `ask` with one cancellation token for its requests: when `signal` aborts, the token is
   * cancelled (the protocol sends `$/cancelRequest`) and every guarded request rejects at once
   * with `cancelled`; a guarded request also rejects when the server exits.
   * @param ask sends its requests with `token` and wraps each in `guard`.
   */
  async withCancellation<R>(
    signal: AbortSignal,
    ask: (token: Protocol.CancellationToken, guard: <T>(p: Promise<T>) => Promise<T>) => Promise<R>,
  ): Promise<R> {
    const source = new this.protocol.CancellationTokenSource();
    const onAbort = () => source.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    const guard = <T>(p: Promise<T>) =>
      raceAbort(
        Promise.race([
          p,
          this.process.exited.then(() => {
            throw new Error('the server exited');
          }),
        ]),
        signal,
      );
    try {
      return await ask(source.token, guard);
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  /**
   * End the server: `shutdown` request and `exit` notification (bounded to 1 s), then the process
   * group is ended (SIGTERM, SIGKILL after 2 s). Resolves when the process is gone.
   */
  async end(): Promise<void> {
    this.ending = true;
    if (!this.closed) {
      try {
        await withTimeout(this.connection.sendRequest(this.protocol.ShutdownRequest.type), 1000);
        await this.connection.sendNotification(this.protocol.ExitNotification.type);
      } catch {
        // ended below either way
      }
    }
    await this.process.kill(2000);
    this.connection.dispose();
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}
