/**
 * Polls a condition on a timer until it holds or time runs out. For conditions no event announces
 * (a process group emptied, a program blocked reading): each check runs on its own timer tick, so
 * nothing spins on the extension host's thread.
 */

/**
 * Resolves true as soon as `predicate()` holds (checked at once, then every `pollMs` ms), or false
 * once `ms` ms have passed without it. A predicate that throws rejects the promise.
 */
export function waitUntil(predicate: () => boolean, ms: number, pollMs = 20): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms;
    const check = () => {
      try {
        if (predicate()) resolve(true);
        else if (Date.now() >= deadline) resolve(false);
        else setTimeout(check, pollMs);
      } catch (error) {
        reject(error);
      }
    };
    check();
  });
}
