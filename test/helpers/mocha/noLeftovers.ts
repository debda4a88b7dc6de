/**
 * Loaded by .mocharc.json: root hooks that note which test started each process this test process
 * runs (a shell, a language server, a sandbox proxy) and, when every test has run, end the ones
 * still running and fail the run naming each process and the test that started it. A process left
 * running keeps mocha from exiting at all: the run would never end. A suite may keep a process
 * across its tests (a language server started by its first request) as long as it ends it in its
 * `after` hook.
 *
 * Processes are found as this process's children in /proc (Linux); elsewhere the hooks do nothing.
 */
import * as fs from 'node:fs';

/** Live children of this process, pid → command line (zombies, already ended, are left out). */
function children(): Map<number, string> {
  const found = new Map<number, string>();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || fields[0] === 'Z') continue;
      found.set(Number(entry), fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim());
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

/** esbuild's service process (the worker bundles of workerEntry.ts) lives as long as the run. */
const kept = (command: string) => /(^|\/)esbuild --service/.test(command);

/** Children alive before the current test, and each child's starting test. */
let before = new Set<number>();
const startedBy = new Map<number, { test: string; command: string }>();

/** Waits up to `ms` ms for `pids` to end; the ones still running. */
async function ended(pids: number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = pids;
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    const live = children();
    left = left.filter((pid) => live.has(pid));
  }
  return left;
}

export const mochaHooks = {
  beforeEach(): void {
    before = new Set(children().keys());
  },
  afterEach(this: Mocha.Context): void {
    for (const [pid, command] of children()) {
      if (before.has(pid) || startedBy.has(pid) || kept(command)) continue;
      startedBy.set(pid, { test: this.currentTest?.fullTitle() ?? 'a test', command });
    }
  },
  async afterAll(): Promise<void> {
    const live = children();
    const still = await ended(
      [...live.keys()].filter((pid) => !kept(live.get(pid)!)),
      2000,
    );
    if (still.length === 0) return;
    const lines = still.map((pid) => {
      const origin = startedBy.get(pid);
      const command = (origin?.command ?? live.get(pid) ?? '').replace(/\s+/g, ' ').slice(0, 200);
      return `${pid} ${command}  (started by: ${origin?.test ?? 'a hook outside any test'})`;
    });
    for (const pid of still) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // ended meanwhile
      }
    }
    throw new Error(`processes still running after the last test (now killed):\n  ${lines.join('\n  ')}`);
  },
};
