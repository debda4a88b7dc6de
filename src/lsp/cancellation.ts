/**
 * Cancellation on the navigation seam (plain Node, no `vscode` import): every query, feature
 * request and index build takes an `AbortSignal`; once it aborts, the work stops with an
 * `LspError` `cancelled` whose `details.reason` is the signal's reason.
 */
import { LspError } from './types';

/**
 * The `cancelled` error of work whose signal aborted: message `"<what> cancelled"`,
 * `details.reason` the signal's reason (`'aborted'` when it has none), `cause` the given cause or
 * the reason.
 * @param what what was cancelled (default `'navigation query'`).
 */
export function cancelledError(signal: AbortSignal, what = 'navigation query', cause?: unknown): LspError {
  return new LspError('cancelled', `${what} cancelled`, { reason: String(signal.reason ?? 'aborted') }, { cause: cause ?? signal.reason });
}

/** Throws {@link cancelledError} when `signal` (if any) has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined, what?: string): void {
  if (signal?.aborted) throw cancelledError(signal, what);
}

/**
 * `p`'s outcome, or {@link cancelledError} as soon as `signal` aborts (at once when it already
 * has); `p` itself is not stopped. Without a signal, `p` as it is.
 */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener('abort', onAbort), resolve(v)),
      (e) => (signal.removeEventListener('abort', onAbort), reject(e)),
    );
  });
}

/** Waits `ms` milliseconds, or rejects with {@link cancelledError} as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(cancelledError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
