/**
 * A wait's `until` pattern matched in a worker thread, within a time bound (plain Node, no
 * `vscode` import). The pattern is the model's: a JavaScript regular expression may backtrack
 * without bound (`(a+)+$` against 30 `a`s and a `!` runs for minutes in V8), and matched on the
 * calling thread (the extension host's, shared by every extension) it would hold that thread the
 * whole time. In a worker, a match that outlasts its bound is ended by terminating the worker.
 *
 * Workers (common/boundedWorker.ts): one per match in flight (a wait has at most one, see
 * untilPattern.ts), one kept idle for the next match.
 */
import { BoundedWorkers } from '../../common/boundedWorker';

/** Most time one match may take (ms): a linear pattern matches the 8 KiB window in well under 1 ms. */
export const UNTIL_MATCH_MS = 250;

/** The worker's job: matches `source` (with `flags`) against `text`; posts the matched text, or null. */
const WORKER_SOURCE = `
function run({ source, flags, text }, post) {
  const m = new RegExp(source, flags).exec(text);
  post(m ? m[0] : null);
}
`;

const workers = new BoundedWorkers(WORKER_SOURCE, 1);

/** How a match in a worker ended: the matched text, none, or stopped at its time bound. */
export type WorkerMatchOutcome = { kind: 'matched'; text: string } | { kind: 'none' } | { kind: 'stopped'; afterMs: number };

/**
 * Matches `pattern` against `text` in a worker thread, within `boundMs` ms of matching (not counting
 * a worker's start-up, nor an answer that waits while the calling thread is busy): past it the
 * worker is terminated and the outcome is `stopped`. The calling thread only posts the text and
 * takes the answer.
 * @throws Error when the worker fails (its message), not for a pattern that runs long.
 */
export function matchInWorker(pattern: RegExp, text: string, boundMs = UNTIL_MATCH_MS): Promise<WorkerMatchOutcome> {
  return workers.run<string | null, WorkerMatchOutcome>(
    { source: pattern.source, flags: pattern.flags, text },
    [],
    (m) => ({ done: m === null ? { kind: 'none' } : { kind: 'matched', text: m } }),
    boundMs,
    () => ({ kind: 'stopped', afterMs: boundMs }),
  );
}
