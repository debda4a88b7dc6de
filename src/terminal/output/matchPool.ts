/**
 * The one bounded pool of the terminal's pattern jobs in this process (the extension host): the
 * scrollback searches (searchWorker.ts) and the `until` matches of waits (untilMatchThread.ts) of
 * every owner of every session. At most POOL_JOBS of them run at once, each in a worker thread of
 * one shared set (common/boundedWorker.ts, POOL_IDLE_WORKERS kept idle), so threads and the memory
 * of the pages searched stay bounded whatever callers ask. Slots are handed out fairly by owner
 * (common/fairSlots.ts): one owner runs at most MAX_RUNNING_JOBS_PER_OWNER at once and has at most
 * MAX_SEARCHES_PER_OWNER searches running or waiting, past which a search is refused at once
 * (LIMIT_REACHED). An `until` match waits for its slot and is never refused: a wait has at most one
 * in flight and an owner's waits are bounded by its sessions (ownerLimits.ts). A search's page is
 * built only once its slot is granted, and its time bound counts from then.
 *
 * Lifetime: made by the composition root and handed to the backends, which give each session the
 * view of its owner (`forOwner`); `dispose()` ends every worker (jobs running then reject) and the
 * page buffer's timer, and resolves once the threads exited.
 */
import { BoundedWorkers } from '../../common/boundedWorker';
import { FairSlots, SlotsFullError } from '../../common/fairSlots';
import { TerminalError } from '../errors';
import { MAX_RUNNING_JOBS_PER_OWNER, MAX_SEARCHES_PER_OWNER, POOL_JOBS } from '../ownerLimits';
import { UNTIL_MATCH_MS, UNTIL_SOURCE, WorkerMatchOutcome, matchInWorker } from '../readiness/untilMatchThread';
import { SEARCH_SOURCE, SearchJob, WorkerOutcome, searchInWorker } from './searchWorker';

/** Workers kept idle for the next job once theirs is done. */
export const POOL_IDLE_WORKERS = 2;
/** How long the shared page buffer is kept after its last search (ms). */
const PAGE_BUFFER_KEEP_MS = 30_000;

/** The workers' program: both jobs' programs, picked by the job's `kind`. */
const POOL_SOURCE = `${SEARCH_SOURCE}\n${UNTIL_SOURCE}\nfunction run(job, post) { return job.kind === 'until' ? runUntil(job, post) : runSearch(job, post); }\n`;

/** A buffer for one search's lines, lent by the pool (see MatchPool.pageBuffer). */
export interface PageLease {
  /** At least `size` bytes (the kept buffer when it is large enough and free). */
  get: (size: number) => Uint8Array;
  /** Gives the buffer back once the search is over. */
  release: () => void;
}

/** What a search needs of the pool once admitted: a page buffer and a worker. */
export interface SearchThreads {
  pageBuffer(): PageLease;
  search(job: SearchJob, timeoutMs: number): Promise<WorkerOutcome>;
}

/** The pool as one owner's sessions use it (MatchPool.forOwner). */
export interface OwnerJobs extends SearchThreads {
  /**
   * Runs `search` once a slot is free for the owner (see the module comment).
   * @throws TerminalError LIMIT_REACHED at once when the owner has MAX_SEARCHES_PER_OWNER searches
   *   in flight (nothing is searched); whatever `search` throws.
   */
  admitSearch<T>(search: () => Promise<T>): Promise<T>;
  /** matchInWorker in the pool, once a slot is free for the owner (never refused). */
  matchUntil(pattern: RegExp, text: string, boundMs?: number): Promise<WorkerMatchOutcome>;
}

/** See the module comment. */
export class MatchPool implements SearchThreads {
  private readonly slots = new FairSlots(POOL_JOBS, MAX_RUNNING_JOBS_PER_OWNER, MAX_SEARCHES_PER_OWNER);
  private readonly workers = new BoundedWorkers(POOL_SOURCE, POOL_IDLE_WORKERS, 'terminal pattern jobs');
  /** The page buffer kept between searches, while no search holds it. */
  private kept: SharedArrayBuffer | undefined;
  private keptTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  /** Worker threads started and not terminated (running a job or idle). */
  get threads(): number {
    return this.workers.size;
  }

  /** The pool as `owner`'s sessions use it: its searches and `until` matches share the owner's slots. */
  forOwner(owner: object): OwnerJobs {
    return {
      admitSearch: (search) => this.admitSearch(owner, search),
      matchUntil: (pattern, text, boundMs = UNTIL_MATCH_MS) =>
        this.slots.run(owner, () => matchInWorker(this.workers, pattern, text, boundMs), false),
      pageBuffer: () => this.pageBuffer(),
      search: (job, timeoutMs) => this.search(job, timeoutMs),
    };
  }

  /** searchInWorker in the pool's workers, without a slot: for a caller that was admitted (OwnerJobs.admitSearch) or runs alone (a benchmark). */
  search(job: SearchJob, timeoutMs: number): Promise<WorkerOutcome> {
    return searchInWorker(this.workers, job, timeoutMs);
  }

  /**
   * A buffer for one search's lines, shared with the worker (not transferred), kept for the next
   * search until PAGE_BUFFER_KEEP_MS after the last: writing 4 MiB into fresh memory costs the
   * calling thread its page faults (a median of 48 ms against 1.7 ms into a reused buffer, on this
   * 2-core machine under load), the extension host's thread included. A worker still reading it
   * after its time bound is being terminated and its results are dropped, so the next search may
   * overwrite it.
   */
  pageBuffer(): PageLease {
    let held: SharedArrayBuffer | undefined;
    return {
      get: (size) => {
        held = this.kept && this.kept.byteLength >= size ? this.kept : new SharedArrayBuffer(Math.max(size, 1));
        if (held === this.kept) this.kept = undefined;
        return new Uint8Array(held, 0, size);
      },
      release: () => {
        if (!held) return;
        if (!this.disposed && (!this.kept || held.byteLength > this.kept.byteLength)) this.kept = held;
        held = undefined;
        clearTimeout(this.keptTimer);
        if (this.disposed) return;
        this.keptTimer = setTimeout(() => (this.kept = undefined), PAGE_BUFFER_KEEP_MS);
        this.keptTimer.unref();
      },
    };
  }

  /** Ends every worker (running jobs reject) and the page buffer's timer; resolves once the threads exited. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    clearTimeout(this.keptTimer);
    this.keptTimer = undefined;
    this.kept = undefined;
    await this.workers.dispose();
  }

  private async admitSearch<T>(owner: object, search: () => Promise<T>): Promise<T> {
    try {
      return await this.slots.run(owner, search);
    } catch (error) {
      if (!(error instanceof SlotsFullError)) throw error;
      throw new TerminalError(
        'LIMIT_REACHED',
        `no search was started: this caller already has ${error.inFlight} searches running or waiting, the most one caller may have (${POOL_JOBS} run at once for all callers, ${MAX_RUNNING_JOBS_PER_OWNER} of them per caller). Wait for one to return, then search again; a regular expression that backtracks (such as (a+)+) runs until its timeoutMs`,
      );
    }
  }
}
