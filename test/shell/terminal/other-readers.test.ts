/**
 * Nobody else reads what is typed, on real processes: a reader started in the shell's own process
 * group and a reader of another session that opened the terminal by its path each refuse the send
 * (OTHER_READER), naming them; nothing reaches them.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../../../src/terminal/errors';
import { Harness, harness } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';

const code = (c: string) => (e: unknown) => e instanceof TerminalError && e.code === c;

/** A python program that opens `tty`, reads once and writes what it got to `out`. */
const reader = (tty: string, out: string) =>
  `import os; f = os.open(${JSON.stringify(tty)}, os.O_RDONLY); d = os.read(f, 4096); open(${JSON.stringify(out)}, 'wb').write(d)`;

/** True once a process whose command line contains `mark` sleeps in a read (x86_64 syscall 0) of a terminal. */
function readingNow(mark: string): boolean {
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(mark)) continue;
      const [nr, fd] = fs.readFileSync(`/proc/${name}/syscall`, 'utf8').split(' ');
      if (nr === '0' && /^\/dev\/(pts\/|tty$)/.test(fs.readlinkSync(`/proc/${name}/fd/${Number.parseInt(fd ?? '', 16)}`))) return true;
    } catch {
      // gone
    }
  }
  return false;
}

describe('nobody else reads what is typed (real processes)', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it("refuses a send while a reader in the shell's own process group waits on the terminal", async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    const out = path.join(h.tmp, 'stolen-same-group');
    fs.writeFileSync(path.join(h.tmp, 'r1.py'), reader('/dev/tty', out));
    await h.service.send(h.owner, id, { input: `set +m; { exec python3 ${h.tmp}/r1.py; } & set -m` });
    await until('the reader to block in read', () => readingNow('r1.py'), 10_000);
    await assert.rejects(
      h.service.send(h.owner, id, { input: 'echo secret', timeoutMs: 3000 }),
      (e: Error) => code('OTHER_READER')(e) && /r1\.py/.test(e.message) && /this session, group \d+/.test(e.message),
    );
    assert.equal(fs.existsSync(out), false, 'the reader got nothing');
  });

  it('refuses a send while a process of another session that opened the terminal by its path reads it', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    const tty = (await h.service.send(h.owner, id, { input: 'tty' })).output.trim().split('\n').pop()!.trim();
    assert.match(tty, /^\/dev\/pts\/\d+$/);
    const out = path.join(h.tmp, 'stolen-other-session');
    fs.writeFileSync(path.join(h.tmp, 'r2.py'), reader(tty, out));
    const child = spawn('setsid', ['python3', path.join(h.tmp, 'r2.py')], { stdio: 'ignore', detached: true });
    try {
      await until("the other session's reader to block in read", () => readingNow('r2.py'), 10_000);
      await assert.rejects(
        h.service.send(h.owner, id, { input: 'echo secret', timeoutMs: 3000 }),
        (e: Error) => code('OTHER_READER')(e) && /r2\.py/.test(e.message) && /another session/.test(e.message),
      );
      assert.equal(fs.existsSync(out), false, 'the reader got nothing');
    } finally {
      for (const name of fs.readdirSync('/proc')) {
        try {
          if (/^\d+$/.test(name) && fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('r2.py'))
            process.kill(Number(name), 'SIGKILL');
        } catch {
          // gone
        }
      }
      child.unref();
    }
  });
});
