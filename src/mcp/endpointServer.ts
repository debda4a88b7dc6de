/**
 * A window's MCP endpoint: a Unix domain socket (mode 0600, in a 0700 folder, see
 * ./socketPath.ts) and a per-window secret. Each connection must pass the handshake of
 * ./handshake.ts before anything it sends is handed on; a wrong or missing secret gets an `ERROR`
 * line and the connection is closed. Nothing listens on a network interface.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { Log } from '../common/log';
import type { Endpoint } from './discovery';
import { HELLO_TIMEOUT_MS, checkHello, readFirstLine } from './handshake';
import { errorMessage } from '../common/errorMessage';


/**
 * An authenticated connection: the socket (paused) and the bytes that arrived after the
 * handshake line, which belong to MCP.
 */
export type ConnectionHandler = (socket: net.Socket, rest: Buffer) => void;

export class EndpointServer {
  /** The per-window secret: 32 random bytes as 64 hex digits. */
  readonly secret = randomBytes(32).toString('hex');
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  private listening = false;

  /**
   * @param socketPath where to listen (see `chooseSocketPath`); a file already there is an error.
   * @param onConnection called once per connection that presented the secret.
   */
  constructor(
    readonly socketPath: string,
    private readonly onConnection: ConnectionHandler,
    /** Where the endpoint reports (no secret, no client data). */
    private readonly log: Log,
    private readonly helloTimeoutMs = HELLO_TIMEOUT_MS,
  ) {
    this.server = net.createServer({ pauseOnConnect: true }, (socket) => void this.accept(socket));
  }

  /** The socket path and secret clients need. */
  get endpoint(): Endpoint {
    return { socketPath: this.socketPath, secret: this.secret };
  }

  /**
   * Starts listening and narrows the socket file to mode 0600.
   * @throws Error from `listen` (e.g. EADDRINUSE) or `chmod`; the server is closed then.
   */
  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.socketPath, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.listening = true;
    try {
      fs.chmodSync(this.socketPath, 0o600);
    } catch (e) {
      await this.close();
      throw e;
    }
    this.log.info(`mcp: listening on ${this.socketPath}`);
  }

  /** Stops listening (the socket file is removed) and ends every connection. Idempotent. */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (!this.listening) return;
    this.listening = false;
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    fs.rmSync(this.socketPath, { force: true });
    this.log.info(`mcp: stopped listening on ${this.socketPath}`);
  }

  private async accept(socket: net.Socket): Promise<void> {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined); // reported through 'close'; never an uncaught error
    socket.resume();
    let first;
    try {
      first = await readFirstLine(socket, undefined, this.helloTimeoutMs);
    } catch (e) {
      this.refuse(socket, errorMessage(e));
      return;
    }
    const refusal = checkHello(first.line, this.secret);
    if (refusal) return this.refuse(socket, refusal);
    socket.write('OK\n');
    this.onConnection(socket, first.rest);
  }

  private refuse(socket: net.Socket, why: string): void {
    this.log.warn(`mcp: refused a connection: ${why}`);
    if (!socket.destroyed) socket.end(`ERROR ${why}\n`);
    // Whatever else it sends is never read; the socket goes once the error line is out.
    setTimeout(() => socket.destroy(), 1000).unref();
  }
}
