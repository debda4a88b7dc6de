/**
 * The handshake on a window's socket, before any MCP message: the client's first line is
 * `DSH-BRIDGE-MCP/1 <secret>\n`; the window answers `OK\n` and from then on both sides speak MCP
 * (newline-delimited JSON-RPC, as MCP's stdio transport), or answers `ERROR <message>\n` and
 * closes. Nothing the client sent after a wrong or missing secret is ever read as MCP.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Socket } from 'node:net';

/** The first word of the client's line; the version after `/` changes when the handshake does. */
export const HELLO = 'DSH-BRIDGE-MCP/1';
/** Longest first line the window reads (bytes, newline included); longer is refused. */
export const MAX_HELLO_BYTES = 256;
/** How long (ms) the window waits for the first line before refusing. */
export const HELLO_TIMEOUT_MS = 5000;

/** The line a client sends first. */
export function helloLine(secret: string): string {
  return `${HELLO} ${secret}\n`;
}

/**
 * Compares a presented secret with the window's in constant time (both hashed to 32 bytes first,
 * so neither the content nor the length leaks through timing; `crypto.timingSafeEqual`).
 */
export function secretMatches(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/** A first line and the bytes that came after it in the same reads (already MCP). */
export interface FirstLine {
  line: string;
  rest: Buffer;
}

/**
 * Reads the first `\n`-terminated line of `socket` (without the newline) and stops reading.
 * @throws Error when the socket ends or errs first, when `maxBytes` pass without a newline, or
 *   after `timeoutMs` (the message says which).
 */
export function readFirstLine(socket: Socket, maxBytes = MAX_HELLO_BYTES, timeoutMs = HELLO_TIMEOUT_MS): Promise<FirstLine> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const done = (error: Error | undefined, value?: FirstLine) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
      socket.pause();
      if (error) reject(error);
      else resolve(value!);
    };
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline >= 0 && newline < maxBytes) {
        done(undefined, { line: buffered.subarray(0, newline).toString('utf8'), rest: buffered.subarray(newline + 1) });
      } else if (buffered.length >= maxBytes) {
        done(new Error(`the first line is longer than ${maxBytes} bytes`));
      }
    };
    const onEnd = () => done(new Error('the connection ended before the first line'));
    const onError = (e: Error) => done(e);
    const timer = setTimeout(() => done(new Error(`no first line within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onError);
  });
}

/**
 * Checks a client's first line against the window's secret.
 * @returns undefined when it is `HELLO <secret>` with the right secret, else why it was refused
 *   (sent to the client in the `ERROR` line; it never quotes what the client sent).
 */
export function checkHello(line: string, secret: string): string | undefined {
  const [word, presented, ...extra] = line.split(' ');
  if (word !== HELLO) return `not a DSH Bridge MCP client (expected "${HELLO} <secret>" as the first line)`;
  if (!presented || extra.length > 0) return 'no secret presented';
  if (!secretMatches(presented, secret)) {
    return 'wrong secret: the window was reloaded or closed since this value was read; start the agent from a new terminal of the window (or copy the value again from "DSH: Connect an Agent (MCP)")';
  }
  return undefined;
}
