/**
 * A session's output paced for a person's terminal (VS Code's terminal panel, through a
 * `Pseudoterminal`): the window is given at most what a person can watch, and when the session
 * prints more than that, the terminal skips ahead to what it would show now.
 *
 * Why: a `Pseudoterminal` has no flow control. Every string it fires is sent from the extension
 * host to the window and drawn there before anything sent after it, replies to every extension's
 * calls included; VS Code's own terminals instead pause their PTY until the window acknowledges
 * what it drew. 100 MB printed by a session kept a no-op tool call waiting 30 s.
 *
 * How:
 * - Output goes through {@link PanelFilter} (OSC strings emptied, counts bounded by the panel's
 *   size), then into a headless xterm.js of the panel's size (the *emulator*, which is given
 *   everything; it runs in a worker thread, see mirrorEmulator.ts, and of plain text parses only
 *   what decides its state, see heldLines.ts) and, while the
 *   terminal keeps up, into a queue for the terminal.
 * - Every `frameMs` one frame leaves the queue: whole pieces (as PanelFilter cuts its result, on
 *   code point boundaries, with their estimated cost) up to `frameCost` estimated cell writes, at
 *   least one piece.
 * - When the queue holds more than `skipCost`, it is dropped and the mirror *skips*: output is
 *   counted, not queued. Once a frame's worth of time passed with less than a frame of new output
 *   (or every `refreshMs` while it goes on), the terminal is given the skip-ahead text
 *   (skipAhead.ts): a notice with the bytes not shown, the emulator's newest lines, its exact screen
 *   and modes. The emulator's state is read where the skipped output ends (its worker answers in
 *   order), so what follows it in the queue continues from there.
 * - Before the terminal opens nothing is sent; at `open` it is given the emulator's state (the
 *   newest lines and the screen), never a cut piece of text.
 * - If more than `emulatorBacklogCost` of output waits for the emulator, the output outruns even
 *   the emulator: it starts over in its worker, fed `tail()` (the session's newest output, as the
 *   session keeps it; of that, the newest part within a parsing budget, see emulatorTail.ts), and
 *   the next skip-ahead is drawn from that; at most once per `refreshMs`
 *   (between two, the emulator is given nothing). An emulator whose worker fails is replaced by one
 *   in a new worker; after {@link MAX_EMULATOR_LOSSES} failures the mirror writes a line saying it
 *   stopped, and stops (the session itself goes on).
 *
 * Defaults ({@link PANEL_PACING}): frames every 32 ms of at most 16 Ki estimated cell writes
 * (about 330 kB/s of ordinary lines, 6000 lines a second), a skip once more than about 0.8 s of
 * frames are queued, a refresh every second while output keeps coming. Every string given to the
 * terminal goes through the one `write` function the caller passes.
 */
import { PanelFilter } from './panelFilter';
import { MirrorEmulator } from './mirrorEmulator';
import type { EmulatorSetup } from './mirrorEmulatorProtocol';

/** How a mirror paces its terminal (times in ms, costs in estimated cell writes, see renderChunks). */
export interface MirrorPacing {
  /** Time between two frames. */
  frameMs: number;
  /** Most estimated cost of one frame (a single chunk may exceed it). */
  frameCost: number;
  /** Queued cost beyond which the mirror skips ahead instead. */
  skipCost: number;
  /** While output keeps coming past the pace, time between two skip-aheads. */
  refreshMs: number;
  /** Lines of the emulator's scrollback written before the screen in a skip-ahead. */
  newestLines: number;
  /** Cost waiting for the emulator beyond which it starts over from `tail()` (at most once per `refreshMs`). */
  emulatorBacklogCost: number;
}

export const PANEL_PACING: MirrorPacing = {
  frameMs: 32,
  frameCost: 16 * 1024,
  skipCost: 24 * 16 * 1024,
  refreshMs: 1000,
  newestLines: 200,
  emulatorBacklogCost: 8 * 1024 * 1024,
};

/** Emulator worker failures after which a mirror stops (see the module comment). */
export const MAX_EMULATOR_LOSSES = 3;

export interface PacedMirrorOptions {
  /** The terminal's size in character cells until `open` or `resize` tells it. */
  cols: number;
  rows: number;
  /** The one way text reaches the terminal. */
  write: (text: string) => void;
  /** Absolute path of the emulator's worker script: the bundle of `mirrorEmulatorWorker.ts` (`dist/mirrorEmulatorWorker.js` in the extension). */
  emulatorEntry: string;
  /** The session's newest output as it printed it (escapes included), for rebuilding the emulator. */
  tail?: () => string;
  /** The nonce of the command marks' sentinels pushed with the output (CommandMarks `nonce`): snapshots keep their marks. */
  markNonce?: string;
  /** Told when the emulator's worker failed (the mirror replaces it, or stops after too many). */
  onError?: (error: Error) => void;
  pacing?: Partial<MirrorPacing>;
}

/** One queued piece: text with its estimated cost, or a skip-ahead that waits for the emulator. */
interface Piece {
  text: string | undefined;
  cost: number;
  /** For a skip-ahead: the bytes it says were not shown. */
  skipped?: number;
  /** Dropped from the queue before the emulator reached it. */
  dropped?: boolean;
}

/** Where a mirror stands: what its counters say, for logs and tests. */
export interface MirrorStats {
  /** UTF-8 bytes of output not given to the terminal, in all. */
  skippedBytes: number;
  /** Skip-aheads given to the terminal. */
  skipAheads: number;
  /** Times the emulator was rebuilt from `tail()`. */
  rebuilds: number;
}

export class PacedMirror {
  private readonly pacing: MirrorPacing;
  private readonly write: (text: string) => void;
  private readonly tail: (() => string) | undefined;
  private readonly markNonce: string | undefined;
  private readonly filter: PanelFilter;
  private readonly emulatorEntry: string;
  private readonly onError: ((error: Error) => void) | undefined;
  private emulator: MirrorEmulator;
  private emulatorLosses = 0;
  private cols: number;
  private rows: number;
  private opened = false;
  private disposed = false;
  private skipping = false;
  private readonly queue: Piece[] = [];
  private queuedCost = 0;
  /** Bytes skipped since the last skip-ahead was taken. */
  private skipped = 0;
  /** Cost pushed since the last frame. */
  private recentCost = 0;
  private lastSkipAhead = 0;
  /** When the emulator was last rebuilt (performance.now(), ms). */
  private lastRebuild = -Infinity;
  /**
   * Set while the output outruns the emulator within `refreshMs` of its last rebuild: the emulator
   * is given nothing more and asked for nothing until this timer rebuilds it (from `tail()`).
   */
  private rebuildDue: ReturnType<typeof setTimeout> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  readonly stats: MirrorStats = { skippedBytes: 0, skipAheads: 0, rebuilds: 0 };

  constructor(options: PacedMirrorOptions) {
    this.pacing = { ...PANEL_PACING, ...options.pacing };
    this.write = options.write;
    this.tail = options.tail;
    this.markNonce = options.markNonce;
    this.emulatorEntry = options.emulatorEntry;
    this.onError = options.onError;
    this.cols = options.cols;
    this.rows = options.rows;
    this.filter = new PanelFilter(this.cols, this.rows);
    this.emulator = this.newEmulator('');
  }

  /** Output of the session, in order. */
  push(output: string): void {
    if (this.disposed || output.length === 0) return;
    const fromGround = this.filter.ground;
    const { text, ends, costs } = this.filter.filter(output);
    if (this.rebuildDue === undefined && this.emulator.backlog > this.pacing.emulatorBacklogCost) this.outrun();
    if (this.rebuildDue === undefined) {
      let total = 0;
      for (const cost of costs) total += cost;
      this.emulator.write(text, total, fromGround);
    }
    let start = 0;
    for (let k = 0; k < ends.length; k++) {
      const piece = text.slice(start, ends[k]);
      const cost = costs[k]!;
      start = ends[k]!;
      this.recentCost += cost;
      if (!this.opened) continue;
      if (this.skipping) {
        this.skip(piece);
        continue;
      }
      this.queue.push({ text: piece, cost });
      this.queuedCost += cost;
    }
    if (!this.opened) return;
    if (!this.skipping && this.queuedCost > this.pacing.skipCost) {
      // More than the terminal can be given in time: drop what waits and skip ahead later.
      this.dropQueue();
    }
    this.schedule();
  }

  /** The terminal opened at `cols` × `rows` (if known): it is given the emulator's state, then the output as it comes. */
  open(cols?: number, rows?: number): void {
    if (this.disposed || this.opened) return;
    if (cols !== undefined && rows !== undefined) this.resize(cols, rows);
    this.opened = true;
    const piece: Piece = { text: undefined, cost: 0, skipped: 0 };
    this.queue.push(piece);
    this.fill(piece, 'initial');
  }

  /** The terminal's new size: the emulator follows it (reflowing as the terminal does), and later output is bounded by it. */
  resize(cols: number, rows: number): void {
    if (this.disposed || cols < 1 || rows < 1 || (cols === this.cols && rows === this.rows)) return;
    this.cols = cols;
    this.rows = rows;
    this.filter.resize(cols, rows);
    this.emulator.resize(cols, rows);
  }

  /** True when nothing waits to be given to the terminal and the mirror is not skipping. */
  get idle(): boolean {
    return !this.skipping && this.rebuildDue === undefined && this.queue.length === 0 && this.emulator.backlog === 0;
  }

  /** Stops: nothing more is written, the emulator is freed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    clearTimeout(this.rebuildDue);
    this.timer = undefined;
    this.rebuildDue = undefined;
    this.queue.length = 0;
    void this.emulator.dispose();
  }

  /** What a new emulator of the terminal's size is made of: it reads `tail` first (its worker filters it). */
  private setup(tail: string): EmulatorSetup {
    return { cols: this.cols, rows: this.rows, scrollback: this.pacing.newestLines, tail, markNonce: this.markNonce };
  }

  /** A new emulator, in a new worker thread, that reads `tail` first. */
  private newEmulator(tail: string): MirrorEmulator {
    const emulator = new MirrorEmulator(this.emulatorEntry, this.setup(tail), (error) => {
      if (this.disposed || this.emulator !== emulator) return;
      this.onError?.(error);
      if (++this.emulatorLosses < MAX_EMULATOR_LOSSES) this.rebuildEmulator();
      else this.stop(error);
    });
    return emulator;
  }

  /**
   * The output outran the emulator: it is rebuilt now, or, within `refreshMs` of the last rebuild,
   * once that interval has passed (a rebuild holds the calling thread while it reads `tail()`: up
   * to tens of ms in the extension host). Until then the terminal is given nothing of it (the
   * mirror skips) and the emulator neither reads nor answers anything.
   */
  private outrun(): void {
    const wait = this.lastRebuild + this.pacing.refreshMs - performance.now();
    if (wait <= 0) {
      this.rebuildEmulator();
      return;
    }
    if (this.opened) this.dropQueue();
    this.rebuildDue = setTimeout(() => {
      this.rebuildDue = undefined;
      this.rebuildEmulator();
    }, wait);
  }

  /**
   * The output outran the emulator (or its worker failed): a new one is fed the session's newest
   * output (the old one's pending writes are dropped with it), in the same worker thread unless
   * that failed, and the mirror skips, so the terminal is given its state.
   */
  private rebuildEmulator(): void {
    const tail = this.tail?.() ?? '';
    if (this.emulator.lost) this.emulator = this.newEmulator(tail);
    else this.emulator.reset(this.setup(tail));
    this.lastRebuild = performance.now();
    this.stats.rebuilds++;
    // Skip-aheads waiting for the old emulator would wait forever: the next one is taken from the new.
    if (this.opened) this.dropQueue();
    this.schedule();
  }

  /** The emulator failed too often: the terminal is told, and the mirror stops. */
  private stop(error: Error): void {
    if (this.opened)
      this.write(
        `\x1b[0m\r\n\x1b[2m… this panel stopped following the session (${error.message}); dsh_terminal_read pages its output\x1b[0m\r\n`,
      );
    this.dispose();
  }

  /** Drops what waits for the terminal, counting it as skipped, and skips ahead from now on. */
  private dropQueue(): void {
    for (const piece of this.queue) {
      piece.dropped = true;
      if (piece.skipped !== undefined) this.skipped += piece.skipped;
      else if (piece.text !== undefined) this.skip(piece.text);
    }
    this.queue.length = 0;
    this.queuedCost = 0;
    this.skipping = true;
  }

  private skip(text: string): void {
    const bytes = Buffer.byteLength(text, 'utf8');
    this.skipped += bytes;
    this.stats.skippedBytes += bytes;
  }

  /**
   * Gives `piece` the emulator's state where the output so far ends, once the emulator parsed it:
   * the initial text or a skip-ahead (see skipAhead.ts), unless the piece was dropped by then.
   */
  private fill(piece: Piece, kind: 'initial' | 'skipAhead'): void {
    const emulator = this.emulator;
    void emulator.snapshot(kind, piece.skipped ?? 0, this.pacing.newestLines).then((text) => {
      if (this.disposed || this.emulator !== emulator || piece.dropped) return;
      piece.text = text;
      piece.cost = this.costOf(text);
      this.queuedCost += piece.cost;
      if (kind === 'skipAhead') this.stats.skipAheads++;
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer || this.disposed || !this.opened) return;
    if (this.queue.length === 0 && !this.skipping) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.frame();
    }, this.pacing.frameMs);
  }

  private frame(): void {
    if (this.disposed) return;
    const now = performance.now();
    // While a rebuild is due, the emulator's state is behind the output: no skip-ahead is taken from it.
    if (this.skipping && this.rebuildDue === undefined) {
      const calm = this.recentCost <= this.pacing.frameCost;
      if (calm || now - this.lastSkipAhead >= this.pacing.refreshMs) this.takeSkipAhead(calm, now);
    }
    this.recentCost = 0;
    let sent = 0;
    let out = '';
    while (this.queue.length > 0) {
      const piece = this.queue[0]!;
      if (piece.text === undefined) break; // a skip-ahead the emulator has not reached yet
      if (out && sent + piece.cost > this.pacing.frameCost) break;
      out += piece.text;
      sent += piece.cost;
      this.queuedCost -= piece.cost;
      this.queue.shift();
    }
    if (out) this.write(out);
    this.schedule();
  }

  /** Queues the skip-ahead text of the emulator's state where the output so far ends; `calm` ends skipping. */
  private takeSkipAhead(calm: boolean, now: number): void {
    const skipped = this.skipped;
    this.skipped = 0;
    this.lastSkipAhead = now;
    if (calm) this.skipping = false;
    // Nothing skipped since the last skip-ahead: the terminal was given everything already
    // (drawing the state again would repeat the newest lines in the terminal's scrollback).
    if (skipped === 0) return;
    const piece: Piece = { text: undefined, cost: 0, skipped };
    this.queue.push(piece);
    this.fill(piece, 'skipAhead');
  }

  /** Estimated cost of a skip-ahead text: a cell per unit, a screen's rows per line feed. */
  private costOf(text: string): number {
    let feeds = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) feeds++;
    return text.length + feeds * this.rows;
  }
}
