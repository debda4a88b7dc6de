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
 * Lifetime: one worker (common/workerHost.ts), started by the first request, unreferenced (it never
 * keeps a Node process alive), terminated by `dispose()`, which resolves once its thread exited.
 */
import { errorMessage } from '../common/errorMessage';
import { WorkerHost } from '../common/workerHost';
import type { ApprovalReply, ApprovalRequest, ApprovalWorkerData } from './approvalProtocol';
import { unjudged } from './approveLine';
import type { ApprovalContext, LineDecision } from './types';

/** Longest one parse of a line may take in the worker (ms): tree-sitter stops there. */
export const PARSE_BOUND_MS = 250;
/** Longest a request may wait for its answer (ms), starting the worker included. */
export const ANSWER_MS = 4000;

interface Pending {
  resolve: (d: LineDecision) => void;
  /** Cancels the request's answer timer. */
  cancel: () => void;
}

export class ApprovalThread {
  private readonly host: WorkerHost<ApprovalRequest, ApprovalReply>;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  /**
   * @param entry absolute path of the worker's script (`dist/approvalWorker.js` in the extension)
   * @param wasmFolder the `wasm` folder of `@vscode/tree-sitter-wasm`
   * @param answerMs see {@link ANSWER_MS}
   */
  constructor(
    entry: string,
    wasmFolder: string,
    private readonly answerMs = ANSWER_MS,
  ) {
    this.host = new WorkerHost({
      name: 'auto-approval parser',
      entry,
      workerData: { wasmFolder } satisfies ApprovalWorkerData,
      heapMb: 256,
      onMessage: (reply) => {
        const p = this.pending.get(reply.id);
        if (!p) return;
        this.pending.delete(reply.id);
        p.cancel();
        p.resolve('decision' in reply ? reply.decision : unjudged(`the command line could not be judged: ${reply.error}`));
      },
      onLost: (why) => this.answerAll(`the approval thread ${why}`),
    });
  }

  /** The decision for `line` under `context`; not approved (with the reason) when it could not be made in time. */
  decide(line: string, context: ApprovalContext): Promise<LineDecision> {
    if (this.host.disposed) return Promise.resolve(unjudged('the approval thread was disposed'));
    return new Promise((resolve) => {
      const request: ApprovalRequest = { id: this.nextId++, line, context, parseBoundMs: PARSE_BOUND_MS };
      try {
        this.host.start();
      } catch (error) {
        return resolve(unjudged(`the approval thread could not be started: ${errorMessage(error)}`));
      }
      // The answer's bound is the worker's: a worker lost first clears it (and answers every request).
      const cancel = this.host.after(this.answerMs, () => {
        this.answerAll(`the command line was not judged within ${this.answerMs} ms`);
        this.host.lose('did not answer in time');
      });
      this.pending.set(request.id, { resolve, cancel });
      try {
        this.host.post(request);
      } catch (error) {
        this.host.lose(`could not be given the line: ${errorMessage(error)}`);
      }
    });
  }

  /** Terminates the worker and resolves once its thread exited; waiting judgements resolve as not approved. Idempotent. */
  async dispose(): Promise<void> {
    const ended = this.host.dispose();
    this.answerAll('the approval thread was disposed');
    await ended;
  }

  /** Resolves every waiting judgement as not approved with `reason`. */
  private answerAll(reason: string): void {
    for (const p of this.pending.values()) {
      p.cancel();
      p.resolve(unjudged(reason));
    }
    this.pending.clear();
  }
}
