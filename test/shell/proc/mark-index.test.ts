// The index of the machine's processes by an environment mark (src/proc/markIndex.ts), on real processes.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { MarkIndex } from '../../../src/proc/markIndex';
import { readStat } from '../../../src/proc/stat';
import { until } from '../../helpers/wait';

describe('mark index: processes by their environment mark', function () {
  this.timeout(60_000);

  it('refreshes asked together read for the earliest start any of them needs, so one whose own bound passed while it waited misses nothing', async () => {
    const value = randomBytes(8).toString('hex');
    const child = spawn('sleep', ['30'], { env: { ...process.env, DSH_TEST_MARK: value }, stdio: 'ignore' });
    try {
      await until('the child to start', () => readStat(child.pid!) !== undefined, 5000);
      const started = readStat(child.pid!)!.startTime;
      const index = new MarkIndex('DSH_TEST_MARK');
      // The first refresh is for processes started after the child; the second, for the child's
      // start, has no time of its own left by the time it runs.
      await Promise.all([index.refresh(started + 1, 30_000), index.refresh(started, 0)]);
      assert.deepEqual(
        index.carrying(value, started).map((p) => p.pid),
        [child.pid],
      );
    } finally {
      child.kill('SIGKILL');
    }
  });
});
