/**
 * Auto-approval judgements in a worker thread (approvalWorker.ts), so that parsing a command line
 * (milliseconds for 10 KB, more on hostile input) and matching the person's regular expressions
 * against it never hold the extension host thread, which every extension shares: that thread only
 * posts the line and takes the decision back (plain Node, no `vscode` import).
 *
 * Bounded: each parse stops at {@link PARSE_BOUND_MS}; a request the worker does not answer
 * within `answerMs` (a regular expression that backtracks without end, a worker that failed or
 * exited) terminates the worker and resolves as not approved, saying why, as does every request
 * waiting then; the next request starts a new worker. A judgement never rejects.
 *
 * Lifetime: one worker, started by the first request, unreferenced (it never keeps a Node process
 * alive), terminated by `dispose()`.
 */
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../common/errorMessage';
import type { ApprovalReply, ApprovalRequest, ApprovalWorkerData } from './approvalProtocol';
import { unjudged } from './approveLine';
import type { ApprovalContext, LineDecision } from './types';

/** Longest one parse of a line may take in the worker (ms): tree-sitter stops there. */
export const PARSE_BOUND_MS = 250;
/** Longest a request may wait for its answer (ms), starting the worker included. */
export const ANSWER_MS = 4000;

interface Pending {
  resolve: (d: LineDecision) => void;
  timer: NodeJS.Timeout;
}

export class ApprovalThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;

  /**
   * @param entry absolute path of the worker's script (`dist/approvalWorker.js` in the extension)
   * @param wasmFolder the `wasm` folder of `@vscode/tree-sitter-wasm`
   * @param answerMs see {@link ANSWER_MS}
   */
  constructor(
    private readonly entry: string,
    private readonly wasmFolder: string,
    private readonly answerMs = ANSWER_MS,
  ) {}

  /** The decision for `line` under `context`; not approved (with the reason) when it could not be made in time. */
  decide(line: string, context: ApprovalContext): Promise<LineDecision> {
    if (this.disposed) return Promise.resolve(unjudged('the approval thread was disposed'));
    return new Promise((resolve) => {
      const request: ApprovalRequest = { id: this.nextId++, line, context, parseBoundMs: PARSE_BOUND_MS };
      const timer = setTimeout(() => this.lose(`the command line was not judged within ${this.answerMs} ms`), this.answerMs);
      timer.unref();
      this.pending.set(request.id, { resolve, timer });
      try {
        (this.worker ??= this.start()).postMessage(request);
      } catch (error) {
        this.lose(`the approval thread could not be given the line: ${errorMessage(error)}`);
      }
    });
  }

  /** Terminates the worker; waiting judgements resolve as not approved. Idempotent. */
  dispose(): void {
    this.disposed = true;
    this.lose('the approval thread was disposed');
  }

  private start(): Worker {
    const worker = new Worker(this.entry, { workerData: { wasmFolder: this.wasmFolder } satisfies ApprovalWorkerData, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.unref();
    worker.on('message', (reply: ApprovalReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      clearTimeout(p.timer);
      p.resolve('decision' in reply ? reply.decision : unjudged(`the command line could not be judged: ${reply.error}`));
    });
    worker.on('error', (error) => this.worker === worker && this.lose(`the approval thread failed: ${errorMessage(error)}`));
    worker.on('exit', () => this.worker === worker && this.lose('the approval thread exited'));
    return worker;
  }

  /** Ends the worker and resolves every waiting judgement as not approved with `reason`. */
  private lose(reason: string): void {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.resolve(unjudged(reason));
    }
    this.pending.clear();
  }
}
