// The hang detector the other tests use: a thread that computes counts as held however busy the
// machine is, and a gap the thread spent waiting for a CPU (other programs on both cores) does not.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import { heldText, mainThreadSchedstat, startLagProbe } from '../helpers/eventLoopLag';

/** This thread's time on a CPU so far, in ms. */
function threadCpuMs(): number {
  return mainThreadSchedstat()!.runNs / 1e6;
}

/** Hold this thread until it has computed `ms` of CPU time. */
function compute(ms: number): void {
  const end = threadCpuMs() + ms;
  while (threadCpuMs() < end) {
    // spinning: each round reads schedstat
  }
}

describe('the lag probe: held is the thread at work, not the thread waiting for a CPU', function () {
  this.timeout(60_000);
  if (process.platform !== 'linux') return;
  let busy: ChildProcess[] = [];
  afterEach(() => {
    for (const p of busy) p.kill('SIGKILL');
    busy = [];
  });

  it('300 ms of computing is held at least 300 ms, also while other programs take every core', async () => {
    busy = Array.from({ length: os.availableParallelism() * 2 }, () => spawn(process.execPath, ['-e', 'for(;;){}'], { stdio: 'ignore' }));
    await new Promise((r) => setTimeout(r, 200));
    const probe = startLagProbe(10);
    await new Promise((r) => setTimeout(r, 100));
    compute(300);
    await new Promise((r) => setTimeout(r, 100));
    const figures = probe.stop();
    assert.ok(figures.maxHeldMs >= 300, heldText(figures));
    assert.ok(figures.maxGapMs >= figures.maxHeldMs, heldText(figures));
    assert.notEqual(figures.waitInMaxGapMs, undefined, 'the main thread reads its run-queue wait');
    assert.ok(figures.maxGapMs - figures.waitInMaxGapMs! <= figures.maxHeldMs + 1e-6, heldText(figures));
  });
});
