/**
 * A wait's `until` pattern matched in a worker thread, within a time bound (plain Node, no
 * `vscode` import). The pattern is the model's: a JavaScript regular expression may backtrack
 * without bound (`(a+)+$` against 30 `a`s and a `!` runs for minutes in V8), and matched on the
 * calling thread (the extension host's, shared by every extension) it would hold that thread the
 * whole time. In a worker, a match that outlasts its bound is ended by terminating the worker.
 *
 * Workers (common/boundedWorker.ts): those of the pool searches share (output/matchPool.ts), which
 * the composition root makes and disposes; a wait has at most one match in flight (untilPattern.ts).
 */
import type { BoundedWorkers } from '../../common/boundedWorker';

/** Most time one match may take (ms): a linear pattern matches the 8 KiB window in well under 1 ms. */
export const UNTIL_MATCH_MS = 250;

/** The worker's job: matches `source` (with `flags`) against `text`; posts the matched text, or null. */
export const UNTIL_SOURCE = `
function runUntil({ source, flags, text }, post) {
  const m = new RegExp(source, flags).exec(text);
  post(m ? m[0] : null);
}
`;

/** How a match in a worker ended: the matched text, none, or stopped at its time bound. */
export type WorkerMatchOutcome = { kind: 'matched'; text: string } | { kind: 'none' } | { kind: 'stopped'; afterMs: number };

/**
 * Matches `pattern` against `text` in one of `workers` (whose program holds UNTIL_SOURCE,
 * dispatching `kind: 'until'` to runUntil), within `boundMs` ms of matching (not counting
 * a worker's start-up, nor an answer that waits while the calling thread is busy): past it the
 * worker is terminated and the outcome is `stopped`. The calling thread only posts the text and
 * takes the answer.
 * @throws Error when the worker fails (its message), not for a pattern that runs long.
 */
export function matchInWorker(
  workers: BoundedWorkers,
  pattern: RegExp,
  text: string,
  boundMs = UNTIL_MATCH_MS,
): Promise<WorkerMatchOutcome> {
  return workers.run<string | null, WorkerMatchOutcome>(
    { kind: 'until', source: pattern.source, flags: pattern.flags, text },
    [],
    (m) => ({ done: m === null ? { kind: 'none' } : { kind: 'matched', text: m } }),
    boundMs,
    () => ({ kind: 'stopped', afterMs: boundMs }),
  );
}
