/**
 * An MCP `Transport` over an authenticated socket connection: newline-delimited JSON-RPC, the
 * framing of MCP's stdio transport (the SDK's `ReadBuffer` and `serializeMessage`), so the stdio
 * bridge only copies bytes. `onclose` fires once, when the socket closes for any reason.
 *
 * Flow control: a client that sends requests and does not read the answers must not make the
 * window hold them all. Requests are handed on in order while fewer than
 * {@link MAX_REQUESTS_IN_FLIGHT} await their answer and the socket's outgoing buffer is below its
 * high-water mark (`writableNeedDrain` false); otherwise the socket is paused, so what the client
 * sends next waits in its own socket buffer, and reading resumes when an answer is sent or the
 * outgoing buffer drains. Nothing is dropped.
 */
import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How many of a client's requests may await their answer at once before reading pauses. */
export const MAX_REQUESTS_IN_FLIGHT = 64;

/** The key of a JSON-RPC id (a string or a number; JSON keeps `1` and `"1"` apart). */
function idKey(id: unknown): string {
  return JSON.stringify(id);
}

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  /** Ids of the client's requests handed on whose answer was not sent yet. */
  private readonly inFlight = new Set<string>();
  private closed = false;

  /**
   * @param socket a connection past the handshake (paused; started by {@link start}).
   * @param rest bytes that followed the handshake line in the same reads: the first MCP bytes.
   */
  constructor(
    private readonly socket: Socket,
    private readonly rest: Buffer = Buffer.alloc(0),
  ) {}

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (e) => this.onerror?.(e));
    this.socket.on('drain', () => this.pump());
    this.socket.once('close', () => this.closeOnce());
    if (this.rest.length > 0) this.receive(this.rest);
    else this.pump();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.socket.destroyed) return reject(new Error('the MCP client is gone'));
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
      if (('result' in message || 'error' in message) && 'id' in message && this.inFlight.delete(idKey(message.id))) this.pump();
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
    this.closeOnce();
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (e) {
      // Over the SDK's buffer bound (10 MiB without a newline): the stream is unusable.
      this.onerror?.(e as Error);
      void this.close();
      return;
    }
    this.pump();
  }

  /**
   * Hands on the complete messages read so far, in order, while the flow-control bounds allow
   * (see the module comment); pauses the socket when they do not, resumes it when all were handed on.
   */
  private pump(): void {
    while (!this.closed) {
      if (this.inFlight.size >= MAX_REQUESTS_IN_FLIGHT || this.socket.writableNeedDrain) {
        this.socket.pause();
        return;
      }
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error); // one bad line; the next may be fine
        continue;
      }
      if (message === null) {
        this.socket.resume();
        return;
      }
      if ('method' in message && 'id' in message) this.inFlight.add(idKey(message.id));
      // A cancelled request gets no answer (MCP cancellation): it no longer counts.
      if ('method' in message && message.method === 'notifications/cancelled' && !('id' in message)) {
        this.inFlight.delete(idKey((message.params as { requestId?: unknown } | undefined)?.requestId));
      }
      this.onmessage?.(message);
    }
  }

  private closeOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.inFlight.clear();
    this.onclose?.();
  }
}
