/**
 * Jobs run in worker threads within a time bound (plain Node, no `vscode` import), for work whose
 * length the caller cannot bound, such as a model's regular expression: JavaScript cannot be
 * interrupted where it runs, but `Worker.terminate` stops a worker wherever it is. The calling
 * thread (the extension host's, shared by every extension) only posts the job and takes replies.
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

/** Workers of one program, each running one job at a time (see the module comment). */
export class BoundedWorkers {
  private readonly idle: Worker[] = [];

  /**
   * @param source the worker's program (CommonJS; `require('node:worker_threads').parentPort` takes jobs)
   * @param keepIdle workers kept for the next job once theirs is done
   */
  constructor(
    private readonly source: string,
    private readonly keepIdle = 1,
  ) {}

  /**
   * Posts `job` (with `transfer`) to an idle worker or a new one, and resolves with the result of
   * the first reply `onReply` ends it with; after `boundMs` ms without one, the worker is
   * terminated and the job resolves with `atBound()` (called once, then).
   * @throws Error when the worker fails (its error), or what `onReply` or `atBound` throws.
   */
  run<M, T>(job: unknown, transfer: TransferListItem[], onReply: ReplyHandler<M, T>, boundMs: number, atBound: () => T): Promise<T> {
    const worker = this.idle.pop() ?? this.newWorker();
    return new Promise<T>((resolve, reject) => {
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
      const timer = setTimeout(() => {
        try {
          finish({ done: atBound() }, false);
        } catch (error) {
          finish({ error }, false);
        }
      }, boundMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(job, transfer);
    });
  }

  private newWorker(): Worker {
    const worker = new Worker(this.source, { eval: true });
    worker.unref();
    return worker;
  }
}
