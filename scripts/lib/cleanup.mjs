// @ts-check
// The cleanup registry: every resource a launcher starts (code-server, Chromium, a temporary
// folder, a file follower) registers an undo step, so nothing outlives the run, whether it ends
// normally, fails, times out or is interrupted. Steps live in scopes: a scope closes on its own
// (one host run ends) or, at the latest, on `shutdown`.

/** An undo step; it may be async. */
/** @typedef {() => unknown} CleanupStep */

/** Longest time (ms) one step may take before the next one runs anyway. */
const STEP_LIMIT_MS = 10_000;

/** @param {number} ms */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A group of undo steps, run newest first, once. */
export class CleanupScope {
  /** @type {CleanupStep[]} */
  #steps = [];
  #closed = false;

  /** Registers `step`; if the scope is already closed, runs it at once (never dropped). */
  add(/** @type {CleanupStep} */ step) {
    if (this.#closed) void runStep(step);
    else this.#steps.push(step);
  }

  /** Runs every step newest first (each bounded to 10 s; errors reported, never thrown). */
  async close() {
    this.#closed = true;
    while (this.#steps.length > 0) await runStep(/** @type {CleanupStep} */ (this.#steps.pop()));
  }
}

/** @param {CleanupStep} step */
async function runStep(step) {
  try {
    await Promise.race([step(), sleep(STEP_LIMIT_MS)]);
  } catch (err) {
    console.error(`cleanup: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The process-wide scope `shutdown` closes. */
const processScope = new CleanupScope();
let shuttingDown = false;

/** Registers `step` to run on shutdown, newest first. */
export function onCleanup(/** @type {CleanupStep} */ step) {
  processScope.add(step);
}

/** A new scope that the caller closes when its resources are done, and shutdown closes anyway. */
export function cleanupScope() {
  const scope = new CleanupScope();
  processScope.add(() => scope.close());
  return scope;
}

/**
 * Runs every cleanup step, prints `lastLine` (if any) to stdout so it really is the last line of
 * the run, then exits with `code`. Later calls do nothing (the first one decides the exit code).
 * @param {number} code
 * @param {string} [lastLine]
 * @returns {Promise<never>}
 */
export async function shutdown(code, lastLine) {
  if (shuttingDown) return new Promise(() => {});
  shuttingDown = true;
  await processScope.close();
  if (lastLine !== undefined) console.log(lastLine);
  process.exit(code);
}

/**
 * Stops everything on Ctrl-C / SIGTERM (exit 130 / 143), on an uncaught exception (exit 1) and,
 * when `timeoutMs` is given, after that many ms (exit 1). `lastLine(why)` gives the line to end the
 * output with in each case. Returns a function that disarms the timeout.
 * @param {number | undefined} timeoutMs
 * @param {(why: string) => string | undefined} lastLine
 */
export function guard(timeoutMs, lastLine) {
  process.on('SIGINT', () => void shutdown(130, lastLine('interrupted')));
  process.on('SIGTERM', () => void shutdown(143, lastLine('terminated')));
  process.on('uncaughtException', (err) => void shutdown(1, lastLine(`uncaught: ${err?.stack ?? err}`)));
  if (timeoutMs === undefined) return () => {};
  const timer = setTimeout(() => void shutdown(1, lastLine(`no report within ${timeoutMs / 1000} s`)), timeoutMs);
  return () => clearTimeout(timer);
}
