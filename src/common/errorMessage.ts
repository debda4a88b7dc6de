/**
 * One readable line for any thrown value: an `Error`'s message, else the value as a string. The
 * one place that turns a caught value into text (`describeError` in src/proc/run.ts adds an
 * error's errno code where that matters).
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
