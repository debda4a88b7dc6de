/**
 * The one lifecycle of a worker thread (plain Node, no `vscode` import), which every worker
 * wrapper of the extension uses: the bounded jobs (boundedWorker.ts), the auto-approval parser,
 * the model-text renderer, the panel mirror's emulator.
 *
 * - Start: the first `post` (or `start`) starts the worker. It is unreferenced unless asked
 *   otherwise: it never keeps a Node process (a test run, the extension host) alive.
 * - Runaway: JavaScript cannot be interrupted where it runs, but `Worker.terminate` stops a worker
 *   wherever it is. Timers armed with `after` belong to the current worker: a wrapper arms its
 *   bound there and calls `lose(why)` when it passes; the timers are cleared when that worker is
 *   lost, stopped or disposed, so none outlives it.
 * - Crash: a worker that fails (an uncaught error, out of memory) or exits on its own is lost:
 *   `onLost(why)` is called once, its later events are ignored, and the next `post` starts a new one.
 * - Dispose: the worker is terminated and `dispose()` resolves once its thread has exited; `post`
 *   throws from then on.
 *
 * {@link WorkerHost.live} counts the threads of every host in the process that have not exited yet.
 */
import { type TransferListItem, Worker } from 'node:worker_threads';

/** How a {@link WorkerHost} starts its worker and where the worker's events go. */
export interface WorkerHostOptions<Reply> {
  /** What the worker does, for diagnostics (WorkerHost.liveNames), e.g. "model-text renderer". */
  name: string;
  /** The worker's script: an absolute path, or with `eval` the program's source (CommonJS). */
  entry: string;
  /** `entry` is the program's source, not a path. Default false. */
  eval?: boolean;
  /** The worker's `workerData`, given to each worker started. */
  workerData?: unknown;
  /** Heap limit of the worker (MB, `maxOldGenerationSizeMb`): a worker over it is lost, not the host. Default: Node's. */
  heapMb?: number;
  /** Keep the process alive while the worker runs. Default false (unreferenced). */
  ref?: boolean;
  /** Each message the current worker posts. */
  onMessage(reply: Reply): void;
  /**
   * The current worker was lost (`why`: "failed: …", "exited (code N)", or the reason given to
   * {@link WorkerHost.lose}); once per worker, never for `stop` or `dispose`.
   */
  onLost?(why: string): void;
}

/** Threads started by any WorkerHost in this process that have not exited, by their host's name. */
const liveThreads = new Map<object, string>();

/** One worker thread at a time over a wrapper's protocol; see the module comment. */
export class WorkerHost<Request, Reply = unknown> {
  private worker: Worker | undefined;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly exits = new Set<Promise<void>>();
  private isDisposed = false;

  constructor(private readonly options: WorkerHostOptions<Reply>) {}

  /** Worker threads of every WorkerHost in this process that have not exited yet. */
  static get live(): number {
    return liveThreads.size;
  }

  /** The names of the hosts whose threads have not exited yet, one per thread, sorted. */
  static liveNames(): string[] {
    return [...liveThreads.values()].sort();
  }

  /** A worker is running (started, not lost, stopped or disposed). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /** `dispose()` was called. */
  get disposed(): boolean {
    return this.isDisposed;
  }

  /**
   * Starts the worker when none runs (after a loss, a new one).
   * @throws Error once disposed, or when Node cannot start it (a bad path is reported later, as a loss).
   */
  start(): void {
    if (this.isDisposed) throw new Error('the worker host was disposed');
    if (this.worker) return;
    const o = this.options;
    const worker = new Worker(o.entry, {
      eval: o.eval ?? false,
      workerData: o.workerData,
      ...(o.heapMb !== undefined ? { resourceLimits: { maxOldGenerationSizeMb: o.heapMb } } : {}),
    });
    liveThreads.set(worker, o.name);
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        liveThreads.delete(worker);
        resolve();
      }),
    );
    this.exits.add(exited);
    void exited.then(() => this.exits.delete(exited));
    worker.on('message', (reply: Reply) => {
      if (worker === this.worker) this.options.onMessage(reply);
    });
    worker.on('error', (error) => worker === this.worker && this.lose(`failed: ${error.message}`));
    worker.on('exit', (code) => worker === this.worker && this.lose(`exited (code ${code})`));
    // After the listeners: adding a 'message' listener references the worker again.
    if (!o.ref) worker.unref();
    this.worker = worker;
  }

  /**
   * Posts `request` (with `transfer`) to the worker, starting one first when none runs.
   * @throws Error once disposed, or what `postMessage` throws (a value that cannot be cloned).
   */
  post(request: Request, transfer: readonly TransferListItem[] = []): void {
    this.start();
    this.worker!.postMessage(request, transfer);
  }

  /**
   * Calls `fire` after `ms` (ms) unless the current worker is lost, stopped or disposed first, or
   * the returned function is called. The timer never keeps the process alive.
   */
  after(ms: number, fire: () => void): () => void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fire();
    }, ms);
    timer.unref();
    this.timers.add(timer);
    return () => {
      clearTimeout(timer);
      this.timers.delete(timer);
    };
  }

  /**
   * Terminates the current worker as lost (a runaway past its bound, a protocol failure) and
   * calls `onLost(why)`; the next `post` starts a new one. Nothing when no worker runs.
   */
  lose(why: string): void {
    if (!this.end()) return;
    this.options.onLost?.(why);
  }

  /** Terminates the worker and resolves once every thread this host started has exited. Idempotent. */
  async dispose(): Promise<void> {
    this.isDisposed = true;
    this.end();
    await Promise.all(this.exits);
  }

  /** Clears the timers and terminates the current worker; false when none ran. */
  private end(): boolean {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const worker = this.worker;
    this.worker = undefined;
    if (!worker) return false;
    void worker.terminate();
    return true;
  }
}
