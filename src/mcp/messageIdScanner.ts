/**
 * What a JSON-RPC message says at its top level (its `id`, whether it has a `method`, a `result` or
 * an `error`), read from its bytes piece by piece without holding them: the transport answers a
 * message too long to read (./socketTransport.ts) with an error that carries the request's id,
 * wherever in the message the id lies (the TypeScript SDK's `Client` writes it last, after the
 * params; the Python SDK first).
 *
 * Cost: each byte is looked at once. Inside a string the scanner jumps from one quote or backslash
 * to the next (`indexOf`, each position looked up once); outside strings it steps byte by byte. It
 * holds at most {@link MAX_CAPTURE_BYTES} of the message: the key or the id being read.
 *
 * It follows the structure of one JSON object: the members of the top level, each a key, a colon
 * and a value; a nested value is skipped by counting brackets outside its strings and is not
 * otherwise checked than that its brackets match (at most 1024 deep). Anything else at the top
 * level, or after the object, makes the message incomplete (`complete` false), and the scanner stops
 * looking.
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** Longest key or id the scanner reads (bytes as written, escapes included); a longer id reads as unusable. */
export const MAX_CAPTURE_BYTES = 1024;

/** What {@link MessageIdScanner.result} found. */
export interface ScannedMessage {
  /** Whether the bytes were one JSON object whose top level the scanner followed to its end. */
  readonly complete: boolean;
  /**
   * The value of the top-level `id` member (the last one, as `JSON.parse` keeps it): a string or a
   * finite number; null when the member is there but its value is something else (null, an
   * object, a string that is not valid JSON, or one longer than {@link MAX_CAPTURE_BYTES});
   * undefined when there is no such member.
   */
  readonly id: RequestId | null | undefined;
  /** Whether the top level has a `method` member (a request or a notification). */
  readonly hasMethod: boolean;
  /** Whether the top level has a `result` or an `error` member (an answer). */
  readonly isAnswer: boolean;
}

/** Where the scanner is in the top-level object. */
const enum At {
  /** Before the object's `{`. */
  Start,
  /** After `{`: a key or `}`. */
  FirstKey,
  /** After `,`: a key. */
  Key,
  /** After a key: `:`. */
  Colon,
  /** After `:`: a value. */
  Value,
  /** In a number or a literal (`true`, `null`, …). */
  Primitive,
  /** In an object or array value, `depth` brackets deep. */
  Nested,
  /** After a value: `,` or `}`. */
  Comma,
  /** After the object's `}`: only white space. */
  End,
}

/** Deepest nesting the scanner follows; a deeper message is incomplete to it. */
const MAX_DEPTH = 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** A byte of a number or a literal: a digit, a letter, `+`, `-` or `.`. */
function isPrimitiveByte(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    byte === 0x2b ||
    byte === 0x2d ||
    byte === 0x2e
  );
}

/**
 * Reads the top level of one JSON object from its bytes (see the module comment): {@link push}
 * the pieces in order, then take {@link result}.
 */
export class MessageIdScanner {
  private at = At.Start;
  /** Brackets open inside a nested value (while `at` is {@link At.Nested}): `brackets[0..depth)`. */
  private readonly brackets = new Uint8Array(MAX_DEPTH);
  private depth = 0;
  /** In a string: what it is (a key, a top-level value, a string inside a nested value). */
  private string: 'key' | 'value' | 'nested' | undefined;
  /** The previous byte was a backslash inside a string (it may end the previous piece). */
  private escaped = false;
  /** The bytes of the key or id being read, and whether it was longer than the room. */
  private readonly capture = Buffer.allocUnsafe(MAX_CAPTURE_BYTES);
  private captureLength = 0;
  private capturing = false;
  private overflow = false;
  /** The key of the member whose value comes next (undefined when unreadable). */
  private key: string | undefined;
  private broken = false;
  private id: RequestId | null | undefined;
  private hasMethod = false;
  private isAnswer = false;

  /** Scans the next bytes of the message. */
  push(piece: Buffer): void {
    const n = piece.length;
    // The next quote and backslash at or after `i` in this piece (-1: none left; -2: not looked up).
    let quote = -2;
    let backslash = -2;
    let i = 0;
    while (i < n && !this.broken) {
      if (this.string === undefined) {
        this.step(piece[i]!);
        i++;
        continue;
      }
      if (this.escaped) {
        this.keep(piece, i, i + 1);
        this.escaped = false;
        i++;
        continue;
      }
      if (quote !== -1 && quote < i) quote = piece.indexOf(QUOTE, i);
      if (backslash !== -1 && backslash < i) backslash = piece.indexOf(BACKSLASH, i);
      if (backslash !== -1 && (quote === -1 || backslash < quote)) {
        this.keep(piece, i, backslash + 1); // the byte after it is kept as escaped
        this.escaped = true;
        i = backslash + 1;
      } else if (quote === -1) {
        this.keep(piece, i, n);
        i = n;
      } else {
        this.keep(piece, i, quote);
        i = quote + 1;
        this.endString();
      }
    }
  }

  /** What the bytes pushed so far say (see {@link ScannedMessage}). */
  result(): ScannedMessage {
    return { complete: !this.broken && this.at === At.End, id: this.id, hasMethod: this.hasMethod, isAnswer: this.isAnswer };
  }

  /** One byte outside strings. */
  private step(byte: number): void {
    switch (this.at) {
      case At.Start:
        if (byte === 0x7b) this.at = At.FirstKey;
        else if (!isSpace(byte)) this.broken = true;
        return;
      case At.FirstKey:
      case At.Key:
        if (byte === QUOTE) this.startString('key', true);
        else if (byte === 0x7d && this.at === At.FirstKey) this.at = At.End;
        else if (!isSpace(byte)) this.broken = true;
        return;
      case At.Colon:
        if (byte === 0x3a) this.startValue();
        else if (!isSpace(byte)) this.broken = true;
        return;
      case At.Value:
        if (isSpace(byte)) return;
        if (byte === QUOTE) {
          this.startString('value', this.key === 'id');
        } else if (byte === 0x7b || byte === 0x5b) {
          this.at = At.Nested;
          this.depth = 0;
          this.open(byte);
          if (this.key === 'id') this.id = null;
        } else if (isPrimitiveByte(byte)) {
          this.at = At.Primitive;
          this.startCapture(this.key === 'id');
          this.keepByte(byte);
        } else {
          this.broken = true; // a value is missing
        }
        return;
      case At.Primitive:
        if (isPrimitiveByte(byte)) {
          this.keepByte(byte);
          return;
        }
        if (this.capturing) this.id = this.primitiveId();
        this.capturing = false;
        this.at = At.Comma;
        this.step(byte);
        return;
      case At.Nested:
        if (byte === QUOTE) this.string = 'nested';
        else if (byte === 0x7b || byte === 0x5b) this.open(byte);
        else if (byte === 0x7d || byte === 0x5d) this.close(byte);
        return;
      case At.Comma:
        if (byte === 0x2c) this.at = At.Key;
        else if (byte === 0x7d) this.at = At.End;
        else if (!isSpace(byte)) this.broken = true;
        return;
      case At.End:
        if (!isSpace(byte)) this.broken = true;
        return;
    }
  }

  /** An opening bracket inside a nested value: remembered, so that its closing one must match. */
  private open(byte: number): void {
    if (this.depth === MAX_DEPTH) this.broken = true;
    else this.brackets[this.depth++] = byte;
  }

  /** A closing bracket inside a nested value; the value ends with its last one. */
  private close(byte: number): void {
    if (this.brackets[--this.depth] !== byte - 2)
      this.broken = true; // `]` and `}` follow `[` and `{` by 2
    else if (this.depth === 0) this.at = At.Comma;
  }

  /** After a key's colon: notes what the key says of the message. */
  private startValue(): void {
    this.at = At.Value;
    if (this.key === 'method') this.hasMethod = true;
    else if (this.key === 'result' || this.key === 'error') this.isAnswer = true;
  }

  private startString(kind: 'key' | 'value', capture: boolean): void {
    this.string = kind;
    this.startCapture(capture);
  }

  private startCapture(capture: boolean): void {
    this.capturing = capture;
    this.captureLength = 0;
    this.overflow = false;
  }

  private endString(): void {
    const kind = this.string;
    this.string = undefined;
    if (kind === 'nested') return;
    const text = this.capturing ? this.capturedString() : undefined;
    this.capturing = false;
    if (kind === 'key') {
      this.key = text;
      this.at = At.Colon;
    } else {
      if (this.key === 'id') this.id = text ?? null;
      this.at = At.Comma;
    }
  }

  /** The captured bytes as the content of a JSON string, or undefined (too long, not valid JSON). */
  private capturedString(): string | undefined {
    if (this.overflow) return undefined;
    try {
      const value: unknown = JSON.parse(`"${this.capture.toString('utf8', 0, this.captureLength)}"`);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  }

  /** The captured primitive as an id: a finite number (as `JSON.parse` reads it), else null. */
  private primitiveId(): number | null {
    if (this.overflow) return null;
    try {
      const value: unknown = JSON.parse(this.capture.toString('latin1', 0, this.captureLength));
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    } catch {
      return null;
    }
  }

  /** Keeps `piece[from..to)` when capturing (up to the room). */
  private keep(piece: Buffer, from: number, to: number): void {
    if (!this.capturing || from >= to) return;
    if (this.captureLength + (to - from) > MAX_CAPTURE_BYTES) {
      this.overflow = true;
      return;
    }
    piece.copy(this.capture, this.captureLength, from, to);
    this.captureLength += to - from;
  }

  private keepByte(byte: number): void {
    if (!this.capturing) return;
    if (this.captureLength === MAX_CAPTURE_BYTES) this.overflow = true;
    else this.capture[this.captureLength++] = byte;
  }
}
