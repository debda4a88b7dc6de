/**
 * Which pids the kernel may have given out between two readings of its allocator (pidAllocation.ts):
 * the cyclic range between the two last pids, or every pid when the allocator may have gone round
 * or a reading is missing; and the readings of this machine's /proc.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { newSince, pidMark, pidMax } from '../../../src/proc/pidAllocation';
import { procAvailable } from '../../../src/proc/sessions';

describe('pids given out since an earlier reading (pidAllocation.ts)', () => {
  const at = (lastPid: number, forks: number, tasks = 100) => ({ lastPid, forks, tasks });

  it('is the range between the two last pids, taken cyclically below pid_max', () => {
    const mayBeNew = newSince(at(1000, 50), at(1010, 60), 32768);
    assert.deepEqual([1000, 1001, 1010, 1011, 5].map(mayBeNew), [false, true, true, false, false]);
    const wrapped = newSince(at(32760, 50), at(310, 400), 32768);
    assert.deepEqual([32760, 32761, 32767, 300, 310, 311, 1000].map(wrapped), [false, true, true, true, true, false, false]);
    assert.equal(newSince(at(1000, 50), at(1000, 70), 32768)(1000), false, 'forks in another pid namespace: none here');
  });

  it('is every pid once the allocator may have gone round, or when a reading is missing', () => {
    // 32 000 forks and 500 tasks: past pid_max − 300, the cursor may have passed every number.
    assert.equal(newSince(at(1000, 0, 500), at(1010, 32_000, 500), 32768)(5000), true);
    assert.equal(newSince(at(1000, 0, 500), at(1010, 31_000, 500), 32768)(5000), false);
    assert.equal(newSince(undefined, at(1010, 60), 32768)(5000), true);
    assert.equal(newSince(at(1000, 50), undefined, 32768)(5000), true);
    assert.equal(newSince(at(1000, 50), at(1010, 60), undefined)(5000), true);
  });

  (procAvailable() ? it : it.skip)("reads this machine's allocator: a process started between two readings is in the range", () => {
    const before = pidMark();
    const child = spawnSync('true');
    const after = pidMark();
    assert.ok(before && after && pidMax(), 'readable');
    assert.ok(after.forks > before.forks);
    assert.equal(newSince(before, after, pidMax())(child.pid), true);
  });
});
