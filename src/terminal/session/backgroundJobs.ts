/**
 * Background sends of one session: a send started without waiting for its answer, whose output is
 * collected as it arrives and handed out read-and-advance (`dsh_terminal_output`), independent of
 * scrollback pages. Bounded: at most JOB_BUFFER_BYTES unread output per job (oldest dropped first,
 * counted, cut on a code point boundary and past an escape sequence the cut falls in, so unread
 * output never starts with the rest of one: unreadTail.ts), and the newest FINISHED_JOBS_KEPT
 * finished jobs kept for a last read; a job let go
 * is named as finished and forgotten (the newest FORGOTTEN_JOBS_NAMED of them by id).
 */
import { quoteInput } from '../../common/quoteInput';
import { errorMessage } from '../../common/errorMessage';
import { TerminalError } from '../errors';
import { UnreadTail } from './unreadTail';
import { unfinishedTail, withoutCutHead } from '../secrets/heldTail';
import type { Disposable, SendResult } from '../types';

/** What `output` returns: the job's output since the previous call, and its end once known. */
export interface JobOutput {
  jobId: string;
  /** True once the send has a wait reason (`result`) or failed (`error`). */
  done: boolean;
  /** The send's result without its viewport (the text came through the cursor reads). */
  result?: Omit<SendResult, 'output'>;
  error?: string;
  /**
   * Output since the previous call (raw terminal text: escapes kept, markers removed), secrets
   * redacted; while the job runs, its unfinished last line (which may hold the head of a secret
   * still arriving) is held for the next call (secrets/heldTail.ts).
   */
  text: string;
  /** Bytes of output dropped because they were not read in time (see dsh_terminal_read). */
  droppedBytes: number;
}

/** Unread output kept per background job before the oldest is dropped (UTF-8 bytes). */
const JOB_BUFFER_BYTES = 1024 * 1024;
/** Finished jobs kept per session for a last `output` call. */
const FINISHED_JOBS_KEPT = 16;
/** Forgotten jobs a session still names as such (the newest), with the command each ran. */
const FORGOTTEN_JOBS_NAMED = 256;

/** A send started in the background: its output since the last `output` call, and its end. */
interface Job {
  id: string;
  /** Output not yet handed out, at most JOB_BUFFER_BYTES (oldest dropped first, never half an escape sequence). */
  unread: UnreadTail;
  result?: SendResult;
  error?: unknown;
  /** Output taken but held back from the last call (heldTail.ts), handed out with the next. */
  held: string;
  /** The previous `output` call, which this one follows (calls hand out text in order). */
  last: Promise<unknown>;
}

/** The background jobs of one session (see the module comment). */
export class BackgroundJobs {
  private readonly jobs = new Map<string, Job>();
  /**
   * Finished jobs let go to keep FINISHED_JOBS_KEPT, the newest FORGOTTEN_JOBS_NAMED of them by id,
   * with the index of the command each ran (when one ran), oldest first.
   */
  private readonly forgotten = new Map<string, number | undefined>();
  /** Finished jobs ever let go (more than `forgotten` names once it is full). */
  private forgottenCount = 0;

  /** @param sessionId the session's id, for error messages. */
  constructor(private readonly sessionId: string) {}

  /**
   * Starts job `jobId`: subscribes to the session's output with `onOutput`, then runs `send` inside
   * the session's in-flight slot through `inSlot`, recording its result or error before the slot
   * is released (so whoever the release wakes finds the job done). Returns at once.
   */
  start(
    jobId: string,
    onOutput: (listener: (text: string) => void) => Disposable,
    inSlot: (work: () => Promise<void>) => Promise<void>,
    send: () => Promise<SendResult>,
  ): void {
    const job: Job = { id: jobId, unread: new UnreadTail(JOB_BUFFER_BYTES), held: '', last: Promise.resolve() };
    const listener = onOutput((text) => job.unread.push(text));
    this.jobs.set(job.id, job);
    const work = () =>
      send().then(
        (r) => void (job.result = r),
        (e: unknown) => void (job.error = e),
      );
    void inSlot(work).finally(() => {
      listener.dispose();
      const finished = [...this.jobs.values()].filter((j) => j.result || j.error);
      for (const old of finished.slice(0, Math.max(0, finished.length - FINISHED_JOBS_KEPT))) this.forget(old);
    });
  }

  /** Lets finished job `job` go, remembering its id (bounded) to name it as forgotten. */
  private forget(job: Job): void {
    this.jobs.delete(job.id);
    this.forgottenCount++;
    this.forgotten.set(job.id, job.result?.command);
    if (this.forgotten.size > FORGOTTEN_JOBS_NAMED) this.forgotten.delete(this.forgotten.keys().next().value!);
  }

  /**
   * Read-and-advance: job `jobId`'s output since the previous call, redacted by `redact`;
   * concatenated, the texts are the job's output exactly once (secrets redacted).
   * @throws TerminalError INVALID_ARGUMENT for a job that finished and was let go (saying so, and
   *   where its output is: the scrollback, the command's index when one ran), or an unknown job id
   *   (listing the session's jobs, running or finished, and how many were forgotten).
   */
  output(jobId: string, redact: (text: string) => Promise<string>): Promise<JobOutput> {
    const job = this.jobs.get(jobId);
    if (!job) {
      if (this.forgotten.has(jobId)) {
        const command = this.forgotten.get(jobId);
        const where = command === undefined ? 'dsh_terminal_read' : `dsh_terminal_read {command: ${command}}`;
        throw new TerminalError(
          'INVALID_ARGUMENT',
          `job ${quoteInput(jobId)} of session ${this.sessionId} finished and was forgotten: a session keeps its newest ${FINISHED_JOBS_KEPT} finished jobs for a last output call, and newer ones finished since. Its output, read or not, is in the scrollback: ${where}`,
        );
      }
      const known = [...this.jobs.values()].map((j) => `${j.id} (${j.result || j.error ? 'finished' : 'running'})`);
      const older = this.forgottenCount > 0 ? ` (${this.forgottenCount} older finished jobs were forgotten)` : '';
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `no job ${quoteInput(jobId)} in session ${this.sessionId}; jobs: ${known.length ? known.join(', ') : 'none (start one with a background send)'}${older}`,
      );
    }
    const answer = job.last.then(async () => {
      const done = !!(job.result || job.error);
      const taken = job.unread.take();
      // Output dropped before this piece may have cut a secret: its tail at the start goes.
      const text = job.held + (taken.droppedBytes > 0 ? withoutCutHead(taken.text) : taken.text);
      const cut = done ? text.length : unfinishedTail(text, true);
      job.held = text.slice(cut);
      const out: JobOutput = { jobId, done, text: await redact(text.slice(0, cut)), droppedBytes: taken.droppedBytes };
      if (job.result) {
        const { output: _viewport, ...result } = job.result;
        out.result = result;
      }
      if (job.error) out.error = errorMessage(job.error);
      return out;
    });
    job.last = answer.catch(() => undefined);
    return answer;
  }
}
