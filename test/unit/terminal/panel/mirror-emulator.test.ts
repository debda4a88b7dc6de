// The panel mirror's emulator in its worker thread (src/terminal/panel/mirrorEmulator.ts): a reset starts
// the emulator over in the same thread (starting a worker holds the calling thread), dropping what
// the old one had not parsed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { MirrorEmulator } from '../../../../src/terminal/panel/mirrorEmulator';
import { until } from '../../../helpers/wait';
import { mirrorEmulatorEntry } from '../../../helpers/workerEntry';

const E = '\x1b';
const COLS = 40;
const ROWS = 8;
const setup = (tail: string) => ({ cols: COLS, rows: ROWS, scrollback: 50, tail });

/** Threads of this process (Linux: its tasks), for counting threads started. */
const threads = () => fs.readdirSync('/proc/self/task').length;

describe('panel mirror emulator', () => {
  it('a reset starts over in the same worker thread: the old output still waiting is dropped, and the tail is the new state', async function () {
    this.timeout(60_000);
    const lost: Error[] = [];
    const emulator = new MirrorEmulator(mirrorEmulatorEntry(), setup(''), (e) => lost.push(e));
    try {
      // Threads that earlier tests' workers leave come and go for a moment: counted once steady.
      let before = threads();
      for (let t = 0; t < 20; t++) {
        await new Promise((r) => setTimeout(r, 50));
        const now = threads();
        if (now === before) break;
        before = now;
      }
      // Enough insert/delete floods that the worker is still parsing when the reset comes.
      const flood = `${E}[H${`${E}[8L${E}[8M`.repeat(2000)}`;
      for (let k = 0; k < 50; k++) emulator.write(`old ${k}\r\n${flood}`, 100_000);
      const stale = emulator.snapshot('initial', 0, 10);
      let staleAnswered = false;
      void stale.then(() => (staleAnswered = true));
      emulator.reset(setup('first\r\nsecond\r\n$ '));
      assert.equal(emulator.backlog, 0, 'the backlog starts over');
      emulator.write('typed', 5);
      const text = await emulator.snapshot('initial', 0, 10);
      // A worker started for the reset would stay as long as the emulator does.
      await until('no thread more than before the reset', () => threads() <= before || undefined, 2_000).catch(() => undefined);
      assert.ok(threads() <= before, `no thread was started (${threads()} threads, ${before} before the reset)`);
      assert.match(text, /first\r?\n(\x1b\[[0-9;]*m)*second/);
      assert.match(text, /\$ typed/);
      assert.doesNotMatch(text, /old \d/);
      await until('the new write to be counted parsed', () => emulator.backlog === 0 || undefined, 10_000);
      assert.equal(staleAnswered, false, 'a snapshot asked before the reset is not answered');
      assert.deepEqual(lost, []);
      assert.equal(emulator.lost, false);
    } finally {
      void emulator.dispose();
    }
    assert.equal(emulator.lost, true);
  });
});
