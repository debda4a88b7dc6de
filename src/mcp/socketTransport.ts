/**
 * An MCP `Transport` over an authenticated socket connection: newline-delimited JSON-RPC, the
 * framing of MCP's stdio transport (the SDK's `serializeMessage` and `deserializeMessage`), so the
 * stdio bridge only copies bytes. `onclose` fires once, when the socket closes for any reason.
 *
 * Reading: lines are found in time linear in the bytes (./lineSplitter.ts). A message longer than
 * {@link MAX_MESSAGE_BYTES} is not read: its bytes up to its newline are looked at once for its
 * top-level id (./messageIdScanner.ts) and dropped, never held, and in its place the client gets
 * an Invalid Request error with that id (id null when the id cannot be told, none for a
 * notification or an answer) saying what the limit is and what to do; `onerror` gets the same
 * message, and the connection goes on with the next message. An unfinished message that gets no
 * new byte for {@link PARTIAL_MESSAGE_TIMEOUT_MS} while the window reads ends the connection: the
 * client is sent a JSON-RPC error with id null saying why (Invalid Request), `onerror` gets the
 * same message, and the socket is closed. Node runs due timers before it reads sockets, so after
 * the extension host's thread was busy past the timeout the rest of the message may be waiting
 * unread: when the time is up the transport lets the socket be read once more (one turn of the
 * event loop) and only ends the connection when no byte came meanwhile.
 *
 * Flow control: a client that sends requests and does not read the answers must not make the
 * window hold them all. A request is handed on only while fewer than
 * {@link MAX_REQUESTS_IN_FLIGHT} are in flight and the socket's outgoing buffer is below its
 * high-water mark (`writableNeedDrain` false); else it waits, and so does every message read after
 * it, in order, but cancellations and answers: those are carried out or handed on at once, so the
 * client can cancel a request in flight while later ones wait. A cancellation of a waiting request
 * removes it (it never runs and is not answered). Reading goes on while fewer than
 * {@link MAX_WAITING_MESSAGES} messages and {@link MAX_WAITING_BYTES} bytes wait; then the socket
 * is paused, so what the client sends next, cancellations too, waits in its own socket buffer until
 * a request stops being in flight or the outgoing buffer drains. Messages other than
 * cancellations and answers are handed on in the order read; nothing is dropped.
 *
 * In flight: a request is in flight from when it is handed on until its handler has settled, which
 * the transport sees as the SDK sending its answer. The SDK answers every request whose handler
 * settles unless its handler's own signal was aborted; so the transport keeps the client's
 * `notifications/cancelled` from the SDK and carries it itself: it aborts the request's
 * {@link SocketTransport.cancellationOf} signal, keeps counting the request until its handler
 * settles, and does not send that answer (MCP cancellation: a cancelled request gets none). A
 * handler that goes on after a cancellation (a confirmation dialog still open) thus keeps holding
 * its place. A request whose id is in flight already is not handed on: it is answered with an
 * Invalid Request error at once.
 *
 * JSON-RPC 2.0 as specified (./jsonRpcMessage.ts reads each line): a line that is not JSON gets a
 * Parse error (−32700) with id null; one that is JSON but not a valid message gets an Invalid
 * Request (−32600) with its id when it can be read, else null, saying what is wrong; `onerror`
 * gets the same; the connection goes on with the next line either way. A batch (a JSON array) is
 * answered as the protocol version the client negotiated in `initialize` says: MCP 2025-03-26
 * allows batches, so each element is taken as if it came alone and the answers go back as one
 * array once every request in it has its answer (none when it holds only notifications); any other
 * version (2025-06-18 removed batches), or a batch before `initialize` was answered, gets an array
 * of Invalid Request errors, one for each request in it (a single one with id null when it holds
 * none), and nothing in it runs.
 */
import type { Socket } from 'node:net';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { readLine, type ReadElement, type ReadLine } from './jsonRpcMessage';
import { LineSplitter, OverlongLine } from './lineSplitter';
import { MessageIdScanner } from './messageIdScanner';

/** How many of a client's requests may be in flight at once (see the module comment); more wait. */
export const MAX_REQUESTS_IN_FLIGHT = 64;

/** How many messages may wait behind a request that waits (see the module comment) before reading pauses. */
export const MAX_WAITING_MESSAGES = 64;

/** How many bytes (as read, newlines not counted) the waiting messages may have before reading pauses: 2 MiB. */
export const MAX_WAITING_BYTES = 2 * 1024 * 1024;

/**
 * Longest message the window reads from a client: 2 MiB (bytes of one line, its newline not
 * counted). The largest tool input is the text `dsh_terminal_send` or `dsh_run` types, at most
 * 256 KiB (`MAX_INPUT_BYTES` of src/terminal/input/sendAdmission.ts), which JSON makes at most 6 times
 * longer (every byte a `\u00XX` escape): 1.5 MiB, and the rest of a call is small. The bound is
 * what one connection's unfinished message can make the window hold; a longer message is
 * answered with an error and not read (see the module comment).
 */
export const MAX_MESSAGE_BYTES = 2 * 1024 * 1024;

/**
 * How long (ms) an unfinished message may go without a new byte, while the window reads, before
 * the connection is ended: 30 s. A client writes a message at once (the bridge copies it as it
 * comes), so a message stalled that long is not coming; between messages a connection may be
 * idle for any time.
 */
export const PARTIAL_MESSAGE_TIMEOUT_MS = 30_000;

/** Options of a {@link SocketTransport}. */
export interface SocketTransportOptions {
  /**
   * Overrides {@link PARTIAL_MESSAGE_TIMEOUT_MS} (ms, a positive number of at most 2^31 - 1).
   */
  partialMessageTimeoutMs?: number;
}

/** The MCP protocol versions that allow JSON-RPC batches (2025-03-26 added them, 2025-06-18 removed them). */
export const BATCH_PROTOCOL_VERSIONS: readonly string[] = ['2025-03-26'];

/** A batch being answered: the keys of its requests still unanswered, and the answers so far. */
interface Batch {
  readonly pending: Set<string>;
  readonly responses: JSONRPCMessage[];
}

/** The key of a JSON-RPC id (a string or a number; JSON keeps `1` and `"1"` apart). */
function idKey(id: unknown): string {
  return JSON.stringify(id);
}

/** Whether `message` is a request (it has a method and an id). */
function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return 'method' in message && 'id' in message;
}

/** A message read that waits to be handed on (see the module comment). */
interface Waiting {
  readonly message: JSONRPCMessage;
  /** Its length as read (bytes, the newline not counted). */
  readonly bytes: number;
}

/** A request of the client handed on whose handler has not settled yet. */
interface InFlight {
  /** Aborted when the client cancels the request or the connection closes. */
  readonly cancellation: AbortController;
}

export class SocketTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly lines = new LineSplitter(MAX_MESSAGE_BYTES, () => new MessageIdScanner());
  private readonly partialMessageTimeoutMs: number;
  /** Runs while an unfinished message waits for its next byte and the socket is read. */
  private partialTimer: NodeJS.Timeout | undefined;
  /** Bytes received from the client so far (read by the unfinished-message timer). */
  private received = 0;
  /** The client's requests in flight, by {@link idKey} of their id. */
  private readonly inFlight = new Map<string, InFlight>();
  /** Messages read that wait, the first a request waiting for the flow-control bounds; in order. */
  private waiting: Waiting[] = [];
  /** The bytes of {@link waiting}. */
  private waitingBytes = 0;
  private closed = false;
  /** Whether the socket's writes are held until the next turn (corkUntilNextTurn). */
  private corked = false;
  /** The key of the client's `initialize` request, until it is answered. */
  private initializeKey: string | undefined;
  /** The protocol version the answer to `initialize` gave, once sent. */
  private protocolVersion: string | undefined;
  /** The batch each request of a batch being answered belongs to, by {@link idKey} of its id. */
  private readonly batchOf = new Map<string, Batch>();

  /**
   * @param socket a connection past the handshake (paused; started by {@link start}).
   * @param rest bytes that followed the handshake line in the same reads: the first MCP bytes.
   * @throws RangeError when `options.partialMessageTimeoutMs` is not a number of ms in 1..2^31-1.
   */
  constructor(
    private readonly socket: Socket,
    private readonly rest: Buffer = Buffer.alloc(0),
    options: SocketTransportOptions = {},
  ) {
    const timeout = options.partialMessageTimeoutMs ?? PARTIAL_MESSAGE_TIMEOUT_MS;
    if (!(timeout >= 1 && timeout <= 2 ** 31 - 1))
      throw new RangeError(`partialMessageTimeoutMs must be a number of ms from 1 to 2147483647, not ${timeout}`);
    this.partialMessageTimeoutMs = timeout;
  }

  async start(): Promise<void> {
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk));
    this.socket.on('error', (e) => this.onerror?.(e));
    this.socket.on('drain', () => this.pump());
    this.socket.once('close', () => this.closeOnce());
    if (this.rest.length > 0) this.receive(this.rest);
    else this.pump();
  }

  /**
   * The cancellation of the client's request `id` while it is in flight: a signal aborted when
   * the client sends `notifications/cancelled` for it (with the client's reason, if any) or when
   * the connection closes. Handlers read it instead of the SDK's `extra.signal`, which a client's
   * cancellation does not reach (see the module comment).
   * @returns undefined when no request with that id is in flight.
   */
  cancellationOf(id: RequestId): AbortSignal | undefined {
    return this.inFlight.get(idKey(id))?.cancellation.signal;
  }

  /**
   * Writes `message` as one line. The answer to a request in flight ends its being in flight (and
   * reading may resume); for a cancelled request it is not written, nor is a message sent on
   * behalf of one (`options.relatedRequestId`). Resolves once written (or dropped that way).
   * @throws Error (rejects) when the connection is closed, or with the socket's write error.
   */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed || this.socket.destroyed) return reject(new Error('the MCP client is gone'));
      let answered: InFlight | undefined;
      let batch: Batch | undefined;
      if (('result' in message || 'error' in message) && 'id' in message && message.id !== undefined) {
        const key = idKey(message.id);
        answered = this.inFlight.get(key);
        this.inFlight.delete(key);
        if (key === this.initializeKey && 'result' in message) {
          const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
          if (typeof version === 'string') this.protocolVersion = version;
          this.initializeKey = undefined;
        }
        batch = this.batchOf.get(key);
        if (batch) this.batchOf.delete(key);
      }
      const related = options?.relatedRequestId === undefined ? undefined : this.inFlight.get(idKey(options.relatedRequestId));
      const cancelled = (answered ?? related)?.cancellation.signal.aborted === true;
      if (batch) {
        batch.pending.delete(idKey((message as { id: RequestId }).id));
        if (!cancelled) batch.responses.push(message);
        this.flushIfDone(batch);
        resolve();
      } else if (cancelled) resolve();
      else {
        this.corkUntilNextTurn();
        this.socket.write(serializeMessage(message), (error) => (error ? reject(error) : resolve()));
      }
      if (answered) this.pump();
    });
  }

  /**
   * Holds the socket's writes until the next turn of the event loop, then writes them in one
   * system call (`cork`/`uncork`): many answers settled in one turn (a burst of refusals) cost one
   * write of the host thread, not one each.
   */
  private corkUntilNextTurn(): void {
    if (this.corked) return;
    this.corked = true;
    this.socket.cork();
    setImmediate(() => {
      this.corked = false;
      if (!this.socket.destroyed) this.socket.uncork();
    });
  }

  async close(): Promise<void> {
    this.socket.end();
    this.socket.destroy();
    this.closeOnce();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    this.received += chunk.length;
    this.partialTimer?.refresh(); // a byte came: the wait starts anew (also after the timer fired)
    this.lines.push(chunk);
    this.pump();
  }

  /**
   * Ends the connection over a broken stream: sends the client a JSON-RPC error with id null
   * saying `why`, reports it through `onerror`, and closes (the socket goes once the line is out,
   * or after a second).
   */
  private fail(why: string): void {
    if (this.closed) return;
    this.socket.end(serializeMessage(invalidRequest(null as unknown as RequestId, why))); // id null: no request's
    setTimeout(() => this.socket.destroy(), 1000).unref();
    this.onerror?.(new Error(why));
    this.closeOnce();
  }

  /**
   * Starts the unfinished-message timer when `reading` and a message is unfinished (a running one
   * goes on), else stops it: it runs while an unfinished message waits and the socket is read.
   */
  private watchUnfinished(reading: boolean): void {
    if (!reading || this.lines.unfinishedBytes === 0) {
      clearTimeout(this.partialTimer);
      this.partialTimer = undefined;
    } else if (!this.partialTimer) {
      const timer = setTimeout(() => this.unfinishedTimedOut(timer), this.partialMessageTimeoutMs);
      timer.unref();
      this.partialTimer = timer;
    }
  }

  /**
   * The unfinished-message timer `timer` ran out. Bytes may be waiting unread behind a busy event
   * loop (timers run before sockets are read): fails the connection one turn later, after the
   * socket was read, unless a byte came meanwhile (which restarted the timer) or the timer was
   * stopped (the message was finished or reading paused).
   */
  private unfinishedTimedOut(timer: NodeJS.Timeout): void {
    const received = this.received;
    setImmediate(() => {
      if (this.closed || this.partialTimer !== timer || this.received !== received) return;
      const ms = this.partialMessageTimeoutMs;
      this.fail(
        `no byte of an unfinished message came for ${ms} ms (${this.lines.unfinishedBytes} bytes of it arrived); the connection is closed`,
      );
    });
  }

  /**
   * Hands on the waiting messages while the flow-control bounds allow, then reads the complete
   * messages read so far while fewer than the bounds on waiting messages wait (see the module
   * comment); pauses the socket while those bounds are reached, else resumes it.
   */
  private pump(): void {
    while (!this.closed && this.waiting.length > 0) {
      const next = this.waiting[0]!;
      if (isRequest(next.message) && this.requestMustWait()) break;
      this.waiting.shift();
      this.waitingBytes -= next.bytes;
      this.handOn(next.message);
    }
    while (!this.closed && !this.waitingFull()) {
      const line = this.lines.next();
      if (line === undefined) break;
      if (line instanceof OverlongLine) {
        this.refuseOverlong(line);
        continue;
      }
      this.takeLine(readLine(line.toString('utf8').replace(/\r$/, '')), line.length);
    }
    if (this.closed) return;
    const reading = !this.waitingFull();
    if (reading) this.socket.resume();
    else this.socket.pause();
    this.watchUnfinished(reading);
  }

  /**
   * A line just read (`bytes` long): a message is taken, an invalid one answered with its error
   * (one bad line; the next may be fine), a batch answered or refused (see the module comment).
   */
  private takeLine(read: ReadLine, bytes: number): void {
    if (read.kind === 'message') return this.take(read.message, bytes);
    if (read.kind === 'invalid') return this.refuseElement(read);
    if (!this.protocolVersion || !BATCH_PROTOCOL_VERSIONS.includes(this.protocolVersion)) return this.refuseBatch(read.elements);
    const batch: Batch = { pending: new Set(), responses: [] };
    const share = Math.ceil(bytes / read.elements.length);
    for (const element of read.elements) {
      if (element.kind === 'invalid') {
        this.onerror?.(new Error(element.why));
        if (element.response) batch.responses.push(element.response);
        continue;
      }
      const message = element.message;
      if (isRequest(message)) {
        const key = idKey(message.id);
        if (
          this.inFlight.has(key) ||
          this.batchOf.has(key) ||
          batch.pending.has(key) ||
          this.waiting.some((w) => isRequest(w.message) && idKey(w.message.id) === key)
        ) {
          batch.responses.push(
            invalidRequest(message.id, `the request id ${key} is in use by another request; give each request an id of its own`),
          );
          continue;
        }
        batch.pending.add(key);
        this.batchOf.set(key, batch);
      }
      this.take(message, share);
    }
    this.flushIfDone(batch);
  }

  /** Answers an invalid line or element with its error, when it gets one, and tells `onerror`. */
  private refuseElement(element: Extract<ReadElement, { kind: 'invalid' }>): void {
    this.onerror?.(new Error(element.why));
    if (element.response) this.socket.write(serializeMessage(element.response));
  }

  /** Refuses a batch the negotiated protocol version does not allow (see the module comment); nothing in it runs. */
  private refuseBatch(elements: readonly ReadElement[]): void {
    const why = this.protocolVersion
      ? `Invalid Request: MCP ${this.protocolVersion}, the protocol version of this connection, has no JSON-RPC batches (only ${BATCH_PROTOCOL_VERSIONS.join(', ')} has); send each message on its own line`
      : 'Invalid Request: a JSON-RPC batch before initialize was answered; send initialize alone, then each message on its own line';
    this.onerror?.(new Error(why));
    const responses = elements.flatMap((e) =>
      e.kind === 'message' && isRequest(e.message)
        ? [invalidRequest(e.message.id, why)]
        : e.kind === 'invalid' && e.response
          ? [e.response]
          : [],
    );
    const answer = responses.length > 0 ? responses : { jsonrpc: '2.0', id: null, error: { code: ErrorCode.InvalidRequest, message: why } };
    this.socket.write(serializeMessage(answer as unknown as JSONRPCMessage));
  }

  /** Writes a batch's answers as one array once none of its requests waits for one (nothing when it has none). */
  private flushIfDone(batch: Batch): void {
    if (batch.pending.size > 0 || this.closed || this.socket.destroyed) return;
    if (batch.responses.length > 0) this.socket.write(serializeMessage(batch.responses as unknown as JSONRPCMessage));
    batch.responses.length = 0;
  }

  /** Whether a request must wait before it is handed on: the in-flight bound, or answers unsent. */
  private requestMustWait(): boolean {
    return this.inFlight.size >= MAX_REQUESTS_IN_FLIGHT || this.socket.writableNeedDrain;
  }

  /** Whether as many messages wait as may (reading pauses). */
  private waitingFull(): boolean {
    return this.waiting.length >= MAX_WAITING_MESSAGES || this.waitingBytes >= MAX_WAITING_BYTES;
  }

  /**
   * A message just read (`bytes` long): a cancellation is carried out and an answer handed on at
   * once; another message waits when messages wait already or it is a request that must wait,
   * else it is handed on.
   */
  private take(message: JSONRPCMessage, bytes: number): void {
    if ('method' in message && message.method === 'notifications/cancelled') {
      this.cancel(message.params as { requestId?: unknown; reason?: unknown } | undefined);
    } else if (!('method' in message)) {
      this.onmessage?.(message); // an answer to a request of the window
    } else if (this.waiting.length > 0 || (isRequest(message) && this.requestMustWait())) {
      this.waiting.push({ message, bytes });
      this.waitingBytes += bytes;
    } else {
      this.handOn(message);
    }
  }

  /**
   * Carries out the client's `notifications/cancelled` (the SDK would abort the handler's signal
   * and never answer): aborts the request in flight with that id, else removes the first waiting
   * request with it; nothing when there is neither.
   */
  private cancel(params: { requestId?: unknown; reason?: unknown } | undefined): void {
    const key = idKey(params?.requestId);
    const inFlight = this.inFlight.get(key);
    if (inFlight) {
      inFlight.cancellation.abort(new Error(typeof params?.reason === 'string' ? params.reason : 'the client cancelled the request'));
      return;
    }
    const at = this.waiting.findIndex(({ message }) => isRequest(message) && idKey(message.id) === key);
    if (at === -1) return;
    this.waitingBytes -= this.waiting[at]!.bytes;
    this.waiting.splice(at, 1);
    // A request of a batch that never runs: its batch no longer waits for it.
    const batch = this.batchOf.get(key);
    if (batch) {
      this.batchOf.delete(key);
      batch.pending.delete(key);
      this.flushIfDone(batch);
    }
  }

  /** Hands `message` on; a request becomes in flight, or is refused when its id is in flight already. */
  private handOn(message: JSONRPCMessage): void {
    if (isRequest(message)) {
      const key = idKey(message.id);
      if (this.inFlight.has(key)) {
        this.refuse(message.id, `the request id ${key} is in use by a request still in flight; give each request an id of its own`);
        return;
      }
      this.inFlight.set(key, { cancellation: new AbortController() });
      if (message.method === 'initialize') this.initializeKey = key;
    }
    this.onmessage?.(message);
  }

  /**
   * Answers a message longer than {@link MAX_MESSAGE_BYTES}, which was not read, with an Invalid
   * Request error: with its id when its top level was read through and has a string or number
   * id; not at all when it is a notification (a method, no id) or an answer; else with id null.
   * Tells `onerror` either way.
   */
  private refuseOverlong(line: OverlongLine<MessageIdScanner>): void {
    const why =
      `a message of ${line.bytes} bytes was not read: the window reads messages of at most 2 MiB (${MAX_MESSAGE_BYTES} bytes); ` +
      'the largest tool input, 256 KiB of text to type, is at most 1.5 MiB as JSON; put larger data in a file and have the command read it';
    this.onerror?.(new Error(why));
    const message = line.watcher.result();
    if (message.complete && !message.hasMethod && message.isAnswer) return; // an answer to a request of the window
    if (message.complete && message.hasMethod && message.id === undefined) return; // a notification
    this.refuse(message.complete && message.id !== null ? message.id : undefined, why);
  }

  /** Answers request `id` (undefined: a message whose id is not known) with an Invalid Request error without handing it on. */
  private refuse(id: RequestId | undefined, why: string): void {
    // JSON-RPC 2.0: the id is null when it could not be read.
    this.socket.write(serializeMessage(invalidRequest(id ?? (null as unknown as RequestId), why)));
  }

  private closeOnce(): void {
    if (this.closed) return;
    this.closed = true;
    this.lines.clear();
    this.watchUnfinished(false);
    this.waiting = [];
    this.waitingBytes = 0;
    this.batchOf.clear();
    for (const request of this.inFlight.values()) request.cancellation.abort(new Error('the MCP client disconnected'));
    this.inFlight.clear();
    this.onclose?.();
  }
}

/** An Invalid Request error answering request `id`. */
function invalidRequest(id: RequestId, why: string): JSONRPCErrorResponse {
  return { jsonrpc: '2.0', id, error: { code: ErrorCode.InvalidRequest, message: why } };
}
