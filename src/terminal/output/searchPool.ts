/**
 * The one pool of scrollback searches every owner of every session shares in this process (the
 * extension host): at most SEARCH_POOL_SIZE searches run at once, each in a worker thread of its own
 * (searchWorker.ts), so threads and the memory of the pages searched stay bounded whatever callers
 * ask; one owner runs at most MAX_RUNNING_SEARCHES_PER_OWNER of them and has at most
 * MAX_SEARCHES_PER_OWNER running or waiting, past which a search is refused at once (LIMIT_REACHED).
 * A search's page is built only once its slot is granted, and its time bound counts from then.
 */
import { FairSlots, SlotsFullError } from '../../common/fairSlots';
import { TerminalError } from '../errors';

/** Searches running at once in the process, each in its own worker thread. */
export const SEARCH_POOL_SIZE = 4;
/** Searches one owner runs at once: the other slots stay free for other owners. */
export const MAX_RUNNING_SEARCHES_PER_OWNER = 2;
/** Searches one owner may have running or waiting; one more is refused at once. */
export const MAX_SEARCHES_PER_OWNER = 4;

const pool = new FairSlots(SEARCH_POOL_SIZE, MAX_RUNNING_SEARCHES_PER_OWNER, MAX_SEARCHES_PER_OWNER);

/**
 * Runs `search` for `owner` in the shared pool (see the module comment).
 * @throws TerminalError LIMIT_REACHED at once when `owner` has MAX_SEARCHES_PER_OWNER searches in
 *   flight (nothing is searched); whatever `search` throws.
 */
export async function inSearchPool<T>(owner: object, search: () => Promise<T>): Promise<T> {
  try {
    return await pool.run(owner, search);
  } catch (error) {
    if (!(error instanceof SlotsFullError)) throw error;
    throw new TerminalError(
      'LIMIT_REACHED',
      `no search was started: this caller already has ${error.inFlight} searches running or waiting, the most one caller may have (${SEARCH_POOL_SIZE} run at once for all callers, ${MAX_RUNNING_SEARCHES_PER_OWNER} of them per caller). Wait for one to return, then search again; a regular expression that backtracks (such as (a+)+) runs until its timeoutMs`,
    );
  }
}
