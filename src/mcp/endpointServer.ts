/**
 * A window's MCP endpoint: a Unix domain socket (mode 0600, in a 0700 folder, see
 * ./socketPath.ts) and a per-window secret. Each connection must pass the handshake of
 * ./handshake.ts before anything it sends is handed on; a wrong or missing secret gets an `ERROR`
 * line and the connection is closed. Nothing listens on a network interface.
 *
 * Bounds: at most {@link MAX_PENDING_HANDSHAKES} connections wait for their handshake and at most
 * {@link MAX_CONNECTIONS} are past it at once; a connection over either gets an `ERROR` line
 * saying which and is closed. Past {@link MAX_SOCKETS} sockets in all (refused ones included,
 * which close within a second), Node closes new connections at once without a word.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import type { Log } from '../common/log';
import type { Endpoint } from './discovery';
import { HELLO_TIMEOUT_MS, checkHello, readFirstLine } from './handshake';
import { errorMessage } from '../common/errorMessage';

/**
 * Most connections waiting for their handshake at once (each may wait up to the hello timeout,
 * 5 s); more are refused at once. A client sends its first line as soon as it connects.
 */
export const MAX_PENDING_HANDSHAKES = 8;
/** Most connections past the handshake at once: the MCP clients of one window; more are refused. */
export const MAX_CONNECTIONS = 32;
/**
 * Most sockets the endpoint holds at once: the connections above and up to 24 refused ones, which
 * close within a second (their `ERROR` line goes out first). Past it Node closes new connections
 * without reading them (`net.Server.maxConnections`), so a flood cannot use up file descriptors.
 */
export const MAX_SOCKETS = MAX_PENDING_HANDSHAKES + MAX_CONNECTIONS + 24;

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
  /** Connections waiting for their handshake. */
  private pending = 0;
  /** Connections past the handshake and still open. */
  private connected = 0;
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
    this.server.maxConnections = MAX_SOCKETS;
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
    if (this.pending >= MAX_PENDING_HANDSHAKES) {
      return this.refuse(
        socket,
        `too many connections are waiting for their handshake (at most ${MAX_PENDING_HANDSHAKES} at once); try again in a few seconds`,
      );
    }
    this.pending++;
    socket.resume();
    let first;
    try {
      first = await readFirstLine(socket, undefined, this.helloTimeoutMs);
    } catch (e) {
      this.refuse(socket, errorMessage(e));
      return;
    } finally {
      this.pending--;
    }
    const refusal = checkHello(first.line, this.secret);
    if (refusal) return this.refuse(socket, refusal);
    if (this.connected >= MAX_CONNECTIONS) {
      return this.refuse(
        socket,
        `too many MCP connections to this window (at most ${MAX_CONNECTIONS}); end another agent's connection first`,
      );
    }
    this.connected++;
    socket.once('close', () => this.connected--);
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
