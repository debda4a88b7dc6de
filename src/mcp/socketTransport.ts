/**
 * An MCP `Transport` over an authenticated socket connection: newline-delimited JSON-RPC, the
 * framing of MCP's stdio transport (the SDK's `ReadBuffer` and `serializeMessage`), so the stdio
 * bridge only copies bytes. `onclose` fires once, when the socket closes for any reason.
 */
import type { Socket } from 'node:net';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
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
    this.socket.once('close', () => this.closeOnce());
    if (this.rest.length > 0) this.receive(this.rest);
    this.socket.resume();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.socket.destroyed) return reject(new Error('the MCP client is gone'));
      this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
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
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (e) {
        this.onerror?.(e as Error); // one bad line; the next may be fine
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  private closeOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
