/**
 * A tool call's or provider call's `vscode.CancellationToken` as the `AbortSignal` the seams take
 * (`src/lsp`, `src/terminal` and `src/tmux` never see `vscode` types).
 */
import type * as vscode from 'vscode';

/** The reason an aborted signal carries when the token was cancelled. */
const CANCELLED_REASON = 'the tool call was cancelled';

/**
 * An `AbortSignal` that aborts (reason {@link CANCELLED_REASON}) when `token` is cancelled, at once
 * when it already is; `dispose()` stops listening to the token. Without a token the signal never
 * aborts.
 */
export function abortOnCancel(token?: vscode.CancellationToken): { readonly signal: AbortSignal; readonly dispose: () => void } {
  const controller = new AbortController();
  const sub = token?.onCancellationRequested(() => controller.abort(CANCELLED_REASON));
  if (token?.isCancellationRequested) controller.abort(CANCELLED_REASON);
  return { signal: controller.signal, dispose: () => void sub?.dispose() };
}

/**
 * {@link abortOnCancel}'s signal alone, for a call whose token lives no longer than the call (VS
 * Code disposes a tool call's token source, and with it the listener, when the call ends).
 */
export function abortSignal(token: vscode.CancellationToken): AbortSignal {
  return abortOnCancel(token).signal;
}
