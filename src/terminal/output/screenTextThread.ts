/**
 * Model-text rendering (screenText.ts) in a worker thread (`screenTextWorker.ts`), so that the
 * render of a send's result or of a read never holds the extension host thread: a render may take
 * its whole budget (RENDER_BUDGET_MS of CPU, RENDER_WALL_MS of wall time) on output built to make
 * an emulator work, and that thread is shared by every extension. The result is the renderer's,
 * unchanged.
 *
 * Lifetime: one worker (common/workerHost.ts) for all the renders of its owner (renders run one at
 * a time, in the order asked), started by the first render, unreferenced (it never keeps a Node
 * process alive), terminated by `dispose()`. Nothing is lost to the worker: when it fails (an uncaught error, out
 * of memory, exited, its script missing) or answers nothing for `hangMs` while renders wait, it is
 * terminated and every waiting render resolves with the plain text of its input (escape sequences
 * removed) after RENDER_LOST_NOTICE, `limited`; the next render starts a new worker. A render the
 * renderer itself throws on rejects with that error, as the renderer would.
 *
 * Without a worker script (`entry` undefined), renders run on the caller's thread, as before.
 */
import { errorMessage } from '../../common/errorMessage';
import { WorkerHost } from '../../common/workerHost';
import { plainText } from './escapeScan';
import { RenderOptions, Rendered, RenderedScreen, TextRenderer, renderPlain } from './screenText';
import type { ScreenTextReply, ScreenTextRequest } from './screenTextProtocol';
import type { Log } from '../../common/log';

/** Heap limit of the worker, in MB: a worker over it is lost (and its renders fall back), not the extension host. */
const WORKER_HEAP_MB = 512;
/**
 * Longest the worker may answer nothing while renders wait (ms) before it counts as hung. One
 * render feeds its emulator for at most RENDER_WALL_MS (400 ms), then reads the buffer back and
 * scans the rest as plain text (linear in the text): seconds only on a machine that starves it.
 */
export const RENDER_HANG_MS = 5000;

/** The first line of a render that the worker did not deliver, before the plain text of the input. */
export const RENDER_LOST_NOTICE =
  '⟪not rendered: the renderer thread failed or did not answer; what follows is plain text, escape sequences removed⟫';

/** A terminal's size in character cells. */
export interface CellSize {
  cols: number;
  rows: number;
}

export interface ScreenTextThreadOptions {
  /** See RENDER_HANG_MS. */
  hangMs?: number;
  /** Where a lost worker is reported (why, never terminal content). */
  log?: Log;
}

interface Pending {
  request: ScreenTextRequest;
  resolve: (rendered: Rendered | RenderedScreen) => void;
  reject: (error: Error) => void;
}

export class ScreenTextThread {
  private readonly hangMs: number;
  private readonly log: Log | undefined;
  private readonly host: WorkerHost<ScreenTextRequest, ScreenTextReply> | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  /** Cancels the timer that ends the worker when it answered nothing for hangMs while renders wait. */
  private watchdog: (() => void) | undefined;
  /** Renderers on the caller's thread, by size, when there is no worker script. */
  private readonly local = new Map<string, TextRenderer>();
  private disposed = false;

  /**
   * @param entry absolute path of the worker's script (`dist/screenTextWorker.js` in the
   *   extension); undefined renders on the caller's thread.
   */
  constructor(
    private readonly entry: string | undefined,
    options: ScreenTextThreadOptions = {},
  ) {
    this.hangMs = options.hangMs ?? RENDER_HANG_MS;
    this.log = options.log;
    this.host =
      entry === undefined
        ? undefined
        : new WorkerHost({
            name: 'model-text renderer',
            entry,
            heapMb: WORKER_HEAP_MB,
            onMessage: (m) => this.answer(m),
            onLost: (why) => this.fallBackAll(why, true),
          });
  }

  /**
   * TextRenderer.render of `raw` with an emulator of `size`, in the worker; plain text (see
   * renderPlain: linear, no emulator) is answered on this thread without the round trip.
   */
  render(size: CellSize, raw: string, options: RenderOptions = {}): Promise<Rendered> {
    const plain = renderPlain(raw, options);
    if (plain) return Promise.resolve(plain);
    if (this.entry === undefined) return Promise.resolve().then(() => this.renderer(size).render(raw, options));
    return this.ask({ type: 'render', id: this.nextId++, cols: size.cols, rows: size.rows, raw, options });
  }

  /** TextRenderer.screen of `raw` with an emulator of `size`, in the worker. */
  screen(size: CellSize, raw: string, startInAlternate = false): Promise<RenderedScreen> {
    if (this.entry === undefined) return Promise.resolve().then(() => this.renderer(size).screen(raw, startInAlternate));
    return this.ask({ type: 'screen', id: this.nextId++, cols: size.cols, rows: size.rows, raw, startInAlternate });
  }

  /**
   * Terminates the worker; renders still waiting resolve with their plain text. Resolves once the
   * worker's thread exited. Idempotent.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    const ended = this.host?.dispose();
    this.fallBackAll('was disposed', false);
    for (const r of this.local.values()) r.dispose();
    this.local.clear();
    await ended;
  }

  private renderer(size: CellSize): TextRenderer {
    const key = `${size.cols}x${size.rows}`;
    let r = this.local.get(key);
    if (!r) this.local.set(key, (r = new TextRenderer(size.cols, size.rows)));
    return r;
  }

  private ask(request: ScreenTextRequest): Promise<Rendered | RenderedScreen> {
    return new Promise((resolve, reject) => {
      const item = { request, resolve, reject };
      if (this.disposed || !this.host) return resolve(fallback(request));
      this.pending.set(request.id, item);
      try {
        this.host.post(request);
      } catch (error) {
        // A worker that could not start (no worker to lose) still answers every waiting render.
        const why = `could not be given the text: ${errorMessage(error)}`;
        this.host.lose(why);
        if (this.pending.has(request.id)) this.fallBackAll(why, true);
        return;
      }
      this.watchdog ??= this.arm();
    });
  }

  private answer(m: ScreenTextReply): void {
    const item = this.pending.get(m.id);
    this.pending.delete(m.id);
    this.watchdog?.();
    this.watchdog = this.pending.size > 0 ? this.arm() : undefined;
    if (!item) return;
    if ('error' in m) item.reject(new Error(m.error));
    else item.resolve(m.rendered);
  }

  /** The worker's timer: at hangMs without an answer the worker is lost (and a new one starts with the next render). */
  private arm(): () => void {
    return this.host!.after(this.hangMs, () => this.host!.lose(`answered nothing for ${this.hangMs} ms`));
  }

  /** Resolves every waiting render with its plain text (the worker was lost: `why`). */
  private fallBackAll(why: string, warn: boolean): void {
    this.watchdog = undefined;
    const waiting = [...this.pending.values()];
    this.pending.clear();
    if (warn) this.log?.warn(`the model-text renderer thread ${why}; ${waiting.length} render(s) returned as plain text`);
    for (const item of waiting) item.resolve(fallback(item.request));
  }
}

/** What a render the worker did not deliver returns: RENDER_LOST_NOTICE, then the input as plain text (the newest `rows` lines for a screen). */
function fallback(request: ScreenTextRequest): Rendered | RenderedScreen {
  const lines = plainText(request.raw).split('\n');
  return { lines: [RENDER_LOST_NOTICE, ...(request.type === 'screen' ? lines.slice(-request.rows) : lines)], limited: true };
}
