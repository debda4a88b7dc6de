/**
 * A close signals a process group only while it still belongs to the session: the group's
 * membership is read just before each signal, not once at the start of a scan of /proc that may
 * take hundreds of ms (sessionTeardown.ts). Real node-pty, real bash, real processes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as proc from '../../../src/proc/procProbe';
import { sessionProcesses } from '../../../src/proc/sessions';
import { until } from '../../helpers/wait';
import { Harness, harness } from '../../helpers/terminalHarness';

(proc.probeAvailable() ? describe : describe.skip)('the groups a close signals (pty-bash, Linux /proc)', function () {
  this.timeout(120_000);
  let h: Harness;
  const realKill = process.kill.bind(process);
  afterEach(async () => {
    process.kill = realKill;
    await h?.dispose();
  });

  it('no signal of a close goes to a group that had ended before it was sent (whose number a stranger could hold)', async () => {
    h = harness({ quietThresholdMs: 60_000 });
    const { sessionId: id } = await h.service.open(h.owner);
    const shell = Number((await h.service.send(h.owner, id, { input: 'echo $$' })).output);
    const script = path.join(h.tmp, 'groups.py');
    const ready = path.join(h.tmp, 'groups-ready');
    // 200 process groups of one process each, which end at random within 100 ms of a SIGHUP:
    // some of them while the close lists the session's groups for its next signal (SIGCONT).
    fs.writeFileSync(
      script,
      `import os, random, signal, time
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
for i in range(200):
    if os.fork() == 0:
        os.setpgid(0, 0)
        def hangup(*_):
            time.sleep(random.uniform(0, 0.1))
            os._exit(0)
        signal.signal(signal.SIGHUP, hangup)
        while True:
            signal.pause()
open(${JSON.stringify(ready)}, 'w').close()
while True:
    signal.pause()
`,
    );
    await h.service.send(h.owner, id, { input: `python3 ${script}`, timeoutMs: 1000 });
    await until('the groups', () => fs.existsSync(ready) && new Set(sessionProcesses(shell).map((p) => p.pgrp)).size > 200);
    const stale: string[] = [];
    process.kill = (pid: number, signal?: string | number) => {
      if (pid < 0 && signal !== 0) {
        try {
          realKill(pid, 0);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ESRCH') stale.push(`${signal} to group ${-pid}`);
        }
      }
      return realKill(pid, signal);
    };
    await h.service.close(h.owner, id);
    process.kill = realKill;
    assert.deepEqual(stale, []);
  });
});
