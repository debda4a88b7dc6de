// How many times the code under test lists /proc on this thread (a full scan of the machine's
// processes makes one list): for tests that a look, a signal or a close never scans /proc there.
// The sources call `fs.readdirSync` through `import * as fs`, which reads the property of the
// module object at each call, so replacing it there is seen.
import * as fs from 'node:fs';
import nodeFs = require('node:fs');

/** Runs `work` (synchronous) and returns how many times it listed /proc with readdirSync. */
export function procListings(work: () => void): number {
  const real = nodeFs.readdirSync;
  let listings = 0;
  (nodeFs as { readdirSync: unknown }).readdirSync = (...args: Parameters<typeof fs.readdirSync>) => {
    if (args[0] === '/proc') listings++;
    return real(...args);
  };
  try {
    work();
  } finally {
    nodeFs.readdirSync = real;
  }
  return listings;
}
