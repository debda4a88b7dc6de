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
 * `keepIdle`); one stopped at its bound, or failed, is terminated. Workers are unreferenced: they
 * never keep a process (a test run, the extension host) alive.
 */
import { type TransferListItem, Worker } from 'node:worker_threads';

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

/** Workers of one program, each running one job at a time (see the module comment). */
export class BoundedWorkers {
  private readonly idle: Worker[] = [];
  private readonly source: string;

  /**
   * @param run the worker's program (CommonJS, `require` available): it defines
   *   `function run(job, post)`, which does one job synchronously and posts its replies with `post`
   * @param keepIdle workers kept for the next job once theirs is done
   */
  constructor(
    run: string,
    private readonly keepIdle = 1,
  ) {
    this.source = `${run}\n${JOB_LOOP}`;
  }

  /**
   * Posts `job` (with `transfer`) to an idle worker or a new one, and resolves with the result of
   * the first reply `onReply` ends it with; once the job has run for `boundMs` ms without one, the
   * worker is terminated and the job resolves with `atBound()` (called once, then).
   * @throws Error when the worker fails (its error), or what `onReply` or `atBound` throws.
   */
  run<M, T>(job: unknown, transfer: TransferListItem[], onReply: ReplyHandler<M, T>, boundMs: number, atBound: () => T): Promise<T> {
    const worker = this.idle.pop() ?? this.newWorker();
    const state = new Int32Array(new SharedArrayBuffer(8));
    const base = now();
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (outcome: { done: T } | { error: unknown }, reuse: boolean) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        if (reuse && this.idle.length < this.keepIdle) this.idle.push(worker);
        else void worker.terminate();
        if ('done' in outcome) resolve(outcome.done);
        else reject(outcome.error);
      };
      const onMessage = (reply: M) => {
        try {
          const ended = onReply(reply);
          if (ended) finish(ended, true);
        } catch (error) {
          finish({ error }, false);
        }
      };
      const onError = (error: Error) => finish({ error }, false);
      // At the bound: stops a job that ran that long; otherwise looks again when it could have.
      const check = () => {
        const phase = Atomics.load(state, 0);
        const ran = phase === 1 ? now() - base - Atomics.load(state, 1) : 0;
        if (phase !== 1 || ran < boundMs) {
          // Not started (the worker starts up), still within the bound, or done (its replies are on their way).
          timer = setTimeout(check, phase === 1 ? Math.max(1, boundMs - ran) : boundMs);
          return;
        }
        try {
          finish({ done: atBound() }, false);
        } catch (error) {
          finish({ error }, false);
        }
      };
      timer = setTimeout(check, boundMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage({ job, state: state.buffer, base }, transfer);
    });
  }

  private newWorker(): Worker {
    const worker = new Worker(this.source, { eval: true });
    worker.unref();
    return worker;
  }
}
