/**
 * Polls a condition on a timer until it holds or time runs out. For conditions no event announces
 * (a process group emptied, a program blocked reading): each check runs on its own timer tick, so
 * nothing spins on the extension host's thread.
 */

/**
 * Resolves true as soon as `predicate()` holds (checked at once, then `pollMs` ms after each check
 * ended), or false once `ms` ms have passed without it. The predicate may be async (a look that
 * reads off this thread); one that throws or rejects rejects the promise.
 */
export function waitUntil(predicate: () => boolean | Promise<boolean>, ms: number, pollMs = 20): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const check = async () => {
      try {
        if (await predicate()) resolve(true);
        else if (Date.now() >= deadline) resolve(false);
        else setTimeout(() => void check(), pollMs);
      } catch (error) {
        reject(error);
      }
    };
    void check();
  });
}
