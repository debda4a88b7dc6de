/**
 * Jobs run in worker threads within a time bound (plain Node, no `vscode` import), for work whose
 * length the caller cannot bound, such as a model's regular expression: JavaScript cannot be
 * interrupted where it runs, but `Worker.terminate` stops a worker wherever it is. The calling
 * thread (the extension host's, shared by every extension) only posts the job and takes replies.
 *
 * The bound counts the job's own run: the worker notes in shared memory when it starts the job and
 * when it is done. A worker still starting up, or an answer waiting while the calling thread is
 * busy (other extensions, a flood of output), is not the job running long, and is never stopped.
 *
 * The worker's program is a plain JavaScript string evaluated by the Worker (`eval: true`): it
 * needs no file of its own, so it runs the same from the bundled extension and from the sources
 * under the unit tests. A worker that finished its job is kept idle for the next one (at most
 * `keepIdle`); one stopped at its bound, or failed, is terminated. Each worker is a WorkerHost
 * (workerHost.ts): unreferenced, its bound's timer its own. `dispose()` ends them all, the idle and
 * the running (whose jobs then reject), and resolves once their threads exited.
 */
import type { TransferListItem } from 'node:worker_threads';
import { WorkerHost } from './workerHost';

/** How a job's reply is taken: `{ done: result }` ends the job, `undefined` waits for more replies. */
export type ReplyHandler<M, T> = (reply: M) => { done: T } | undefined;

/** A clock the threads of this process share (ms). */
const now = () => performance.timeOrigin + performance.now();

/**
 * What runs each job in the worker, around the program's `run(job, post)`: in `state` (an
 * Int32Array over shared memory) it stores at [1] when it started, in ms after `base` (the posting
 * thread's clock), then 1 at [0]; 2 at [0] once `run` returned.
 */
const JOB_LOOP = `
const { parentPort: __port } = require('node:worker_threads');
__port.on('message', ({ job, state, base }) => {
  const s = new Int32Array(state);
  Atomics.store(s, 1, Math.max(0, Math.round(performance.timeOrigin + performance.now() - base)));
  Atomics.store(s, 0, 1);
  try {
    run(job, (reply) => __port.postMessage(reply));
  } finally {
    Atomics.store(s, 0, 2);
  }
});
`;

/** One worker of the pool and the job it runs now, if any. */
interface Slot {
  host: WorkerHost<unknown, unknown>;
  onMessage?: (reply: unknown) => void;
  onLost?: (why: string) => void;
}

/** Workers of one program, each running one job at a time (see the module comment). */
export class BoundedWorkers {
  private readonly idle: Slot[] = [];
  private readonly busy = new Set<Slot>();
  /** Workers terminated and not yet exited. */
  private readonly ending = new Set<Promise<void>>();
  private readonly source: string;
  private disposed = false;

  /**
   * @param run the worker's program (CommonJS, `require` available): it defines
   *   `function run(job, post)`, which does one job synchronously and posts its replies with `post`
   * @param keepIdle workers kept for the next job once theirs is done
   * @param name what the jobs are, for diagnostics (WorkerHost.liveNames)
   */
  constructor(
    run: string,
    private readonly keepIdle = 1,
    private readonly name = 'bounded jobs',
  ) {
    this.source = `${run}\n${JOB_LOOP}`;
  }

  /** Workers started and not terminated: running a job or idle. */
  get size(): number {
    return this.idle.length + this.busy.size;
  }

  /**
   * Posts `job` (with `transfer`) to an idle worker or a new one, and resolves with the result of
   * the first reply `onReply` ends it with; once the job has run for `boundMs` ms without one, the
   * worker is terminated and the job resolves with `atBound()` (called once, then). A job whose
   * worker is terminated (at its bound, failed) settles once that thread has exited, so a caller
   * that bounds the jobs running at once bounds the threads: at most those plus `keepIdle`.
   * @throws Error when the worker fails (its error), the pool is or gets disposed, or what
   *   `onReply` or `atBound` throws.
   */
  run<M, T>(job: unknown, transfer: TransferListItem[], onReply: ReplyHandler<M, T>, boundMs: number, atBound: () => T): Promise<T> {
    if (this.disposed) return Promise.reject(new Error('the worker pool was disposed'));
    const slot = this.idle.pop() ?? this.newSlot();
    this.busy.add(slot);
    const state = new Int32Array(new SharedArrayBuffer(8));
    const base = now();
    return new Promise<T>((resolve, reject) => {
      const settle = (outcome: { done: T } | { error: unknown }) => ('done' in outcome ? resolve(outcome.done) : reject(outcome.error));
      /** Cancels the bound's timer (armed on the worker, see check). */
      let cancel: () => void = () => undefined;
      const finish = (outcome: { done: T } | { error: unknown }, reuse: boolean) => {
        if (!this.busy.delete(slot)) return;
        cancel();
        slot.onMessage = slot.onLost = undefined;
        if (reuse && !this.disposed && this.idle.length < this.keepIdle) {
          this.idle.push(slot);
          settle(outcome);
        } else {
          // Once its thread is gone: a caller that bounds the jobs running bounds the threads too.
          void this.retire(slot).then(() => settle(outcome));
        }
      };
      slot.onMessage = (reply) => {
        try {
          const ended = onReply(reply as M);
          if (ended) finish(ended, true);
        } catch (error) {
          finish({ error }, false);
        }
      };
      slot.onLost = (why) => finish({ error: new Error(`the worker ${why}`) }, false);
      // At the bound: stops a job that ran that long; otherwise looks again when it could have.
      const check = () => {
        const phase = Atomics.load(state, 0);
        const ran = phase === 1 ? now() - base - Atomics.load(state, 1) : 0;
        if (phase !== 1 || ran < boundMs) {
          // Not started (the worker starts up), still within the bound, or done (its replies are on their way).
          cancel = slot.host.after(phase === 1 ? Math.max(1, boundMs - ran) : boundMs, check);
          return;
        }
        try {
          finish({ done: atBound() }, false);
        } catch (error) {
          finish({ error }, false);
        }
      };
      try {
        slot.host.post({ job, state: state.buffer, base }, transfer);
        cancel = slot.host.after(boundMs, check);
      } catch (error) {
        finish({ error }, false);
      }
    });
  }

  /**
   * Terminates every worker, idle or running (a running job rejects), and resolves once all the
   * threads this pool started have exited. `run` rejects from then on. Idempotent.
   */
  async dispose(): Promise<void> {
    this.disposed = true;
    for (const slot of [...this.busy]) slot.onLost?.('was ended: the worker pool was disposed');
    for (const slot of this.idle.splice(0)) void this.retire(slot);
    await Promise.all(this.ending);
  }

  private newSlot(): Slot {
    const slot: Slot = {
      host: new WorkerHost<unknown, unknown>({
        name: this.name,
        entry: this.source,
        eval: true,
        onMessage: (reply) => slot.onMessage?.(reply),
        onLost: (why) => slot.onLost?.(why),
      }),
    };
    return slot;
  }

  /** Terminates the slot's worker; resolves once its thread exited (which `dispose` awaits too). */
  private retire(slot: Slot): Promise<void> {
    const ended = slot.host.dispose();
    this.ending.add(ended);
    void ended.then(() => this.ending.delete(ended));
    return ended;
  }
}
