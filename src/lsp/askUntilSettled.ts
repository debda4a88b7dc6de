/**
 * Asking a language source again until its answer is final (plain Node, no `vscode` import): the
 * one loop behind every navigation and feature request that may be answered while the language is
 * still loading (VS Code's providers and configured stdio servers alike).
 */
import { abortableSleep, throwIfAborted } from './cancellation';

/**
 * What one attempt knew about its answer:
 * - `settled`: the source had finished loading when it answered (a ready stdio server; TypeScript
 *   answering a hover without "(loading...)" before the question was sent): the answer is final;
 * - `loading`: the source said it is still loading (work-done progress running, a "(loading...)"
 *   hover): the answer is provisional, even when it repeats;
 * - `unknown`: the source gave no signal: the answer is final once the next attempt's answer agrees
 *   with it (`agree`), or when `final` says so.
 */
export type AnswerState = 'settled' | 'loading' | 'unknown';

/** One attempt's outcome: its answer and what was known about it, or `undefined` for no answer this time (the source went away mid-request). */
export type Attempt<A> = { readonly answer: A; readonly state: AnswerState } | undefined;

/** Options of {@link askUntilSettled}. */
export interface AskUntilSettledOptions<A> {
  /**
   * The time limit of the call: ms since the epoch after which no further attempt starts. A
   * function is read after every attempt, so a caller can extend the limit while the source shows
   * it is working (e.g. a longer one once the language reported loading).
   */
  readonly deadline: number | (() => number);
  readonly signal: AbortSignal;
  /** One attempt (`n` counts from 1). */
  readonly attempt: (n: number) => Promise<Attempt<A>>;
  /**
   * True when two answers in a row say the same thing; an `unknown` answer agreeing with the
   * previous `unknown` one is final. Without it, `unknown` answers are never final by agreement.
   * May answer later (a comparison of long answers that yields); what it throws is thrown.
   */
  readonly agree?: (previous: A, current: A) => boolean | Promise<boolean>;
  /** Waits `ms` between attempts; rejects when `signal` aborts. Default: a plain abortable sleep. */
  readonly wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** First wait (ms); doubles after each attempt up to `maxDelayMs`. Default 100. */
  readonly firstDelayMs?: number;
  /** Longest wait (ms). Default 1000. */
  readonly maxDelayMs?: number;
}

/**
 * The outcome: `settled` with the final answer, or not settled at the deadline with the last answer
 * (if any attempt answered) for the caller to return as provisional or to turn into `not_ready`.
 * `attempts` counts the attempts made; `elapsedMs` the time spent.
 */
export type AskOutcome<A> =
  | { readonly settled: true; readonly answer: A; readonly attempts: number; readonly elapsedMs: number }
  | { readonly settled: false; readonly answer?: A; readonly attempts: number; readonly elapsedMs: number };

/**
 * Ask with `attempt` until an answer is final (see {@link AnswerState}), waiting between attempts
 * (100 ms doubling to 1 s by default, never past `deadline`). At least one attempt is made, even
 * when the deadline has already passed.
 * @throws LspError `cancelled` as soon as `signal` aborts (between attempts or during the wait);
 *   whatever `attempt` or `agree` throws.
 */
export async function askUntilSettled<A>(options: AskUntilSettledOptions<A>): Promise<AskOutcome<A>> {
  const { deadline, signal, attempt, agree } = options;
  const wait = options.wait ?? abortableSleep;
  const maxDelay = options.maxDelayMs ?? 1000;
  let delay = options.firstDelayMs ?? 100;
  const started = Date.now();
  let last: A | undefined;
  let hasLast = false;
  let previousUnknown: { answer: A } | undefined;
  for (let n = 1; ; n++) {
    throwIfAborted(signal);
    const outcome = await attempt(n);
    throwIfAborted(signal);
    if (outcome) {
      last = outcome.answer;
      hasLast = true;
      if (outcome.state === 'settled') return { settled: true, answer: outcome.answer, attempts: n, elapsedMs: Date.now() - started };
      if (outcome.state === 'unknown') {
        if (agree && previousUnknown && (await agree(previousUnknown.answer, outcome.answer))) {
          return { settled: true, answer: outcome.answer, attempts: n, elapsedMs: Date.now() - started };
        }
        previousUnknown = { answer: outcome.answer };
      } else {
        previousUnknown = undefined;
      }
    }
    const left = (typeof deadline === 'number' ? deadline : deadline()) - Date.now();
    if (left <= 0) {
      const elapsedMs = Date.now() - started;
      return hasLast ? { settled: false, answer: last as A, attempts: n, elapsedMs } : { settled: false, attempts: n, elapsedMs };
    }
    await wait(Math.min(delay, left), signal);
    delay = Math.min(delay * 2, maxDelay);
  }
}
