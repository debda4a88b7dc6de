/**
 * An MCP server of this extension on a real Unix socket under plain Node, and a client that writes
 * raw lines to it and keeps every JSON value the server writes back: for tests of what the
 * window answers to messages an SDK client would never send.
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SocketTransport } from '../../src/mcp/socketTransport';
import { within } from './wait';

/**
 * Calls `line` with each line `socket` receives (each chunk read as UTF-8; the line without its
 * `\n`), in order, and `chunk` after the lines of each piece of data.
 */
export function onLines(socket: net.Socket, line: (text: string) => void, chunk?: () => void): void {
  let pending = '';
  socket.on('data', (d: Buffer) => {
    pending += d.toString('utf8');
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const text = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      line(text);
    }
    chunk?.();
  });
}

/** A client connected to a served socket. */
export interface LineClient {
  /** Writes `text` and a newline. */
  send(text: string): void;
  /** Every JSON value the server wrote, in order (an object, or an array for a batch answer). */
  readonly received: unknown[];
  /** The transport's `onerror` messages on the server side. */
  readonly serverErrors: string[];
  closed(): boolean;
  /** Resolves with the next value the server writes after the ones received so far. */
  next(what: string, timeoutMs?: number): Promise<unknown>;
  /** Sends `{id, method: "tools/list"}` and resolves with its answer (the connection still answers). */
  listTools(id: number | string): Promise<Record<string, unknown>>;
  dispose(): void;
}

/**
 * Serves `makeServer()` (a fresh SDK server per connection, over a {@link SocketTransport}) on a
 * socket in a temporary folder and connects one client to it.
 */
export async function lineClient(makeServer: () => Server): Promise<LineClient> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-mcp-lines-'));
  const socketPath = path.join(dir, 's');
  const serverErrors: string[] = [];
  const sockets: net.Socket[] = [];
  const listener = net.createServer({ pauseOnConnect: true }, (socket) => {
    sockets.push(socket);
    const transport = new SocketTransport(socket);
    const server = makeServer();
    void server.connect(transport).then(() => {
      const sdkError = transport.onerror;
      transport.onerror = (e) => {
        serverErrors.push(e.message);
        sdkError?.(e);
      };
    });
  });
  await new Promise<void>((resolve) => listener.listen(socketPath, resolve));
  const socket = net.createConnection(socketPath);
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const received: unknown[] = [];
  let closed = false;
  /** Called on every value received and when the socket closes. */
  let waiters: (() => void)[] = [];
  const wake = () => {
    const now = waiters;
    waiters = [];
    for (const w of now) w();
  };
  onLines(socket, (line) => received.push(JSON.parse(line)), wake);
  socket.on('error', () => undefined);
  socket.on('close', () => {
    closed = true;
    wake();
  });
  const client: LineClient = {
    send: (text) => void socket.write(`${text}\n`),
    received,
    serverErrors,
    closed: () => closed,
    next(what, timeoutMs = 10_000) {
      const at = received.length;
      const arrived = new Promise<unknown>((resolve, reject) => {
        const check = () => {
          if (received.length > at) resolve(received[at]);
          else if (closed) reject(new Error(`the connection closed before ${what}`));
          else waiters.push(check);
        };
        check();
      });
      return within(timeoutMs, what, arrived);
    },
    async listTools(id) {
      const answer = client.next(`the answer to tools/list ${String(id)}`);
      client.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' }));
      return (await answer) as Record<string, unknown>;
    },
    dispose() {
      socket.destroy();
      for (const s of sockets) s.destroy();
      listener.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return client;
}
