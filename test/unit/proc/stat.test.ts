/** `/proc/<pid>/stat` parsing (src/proc/stat.ts) on real processes, and on text that is not such a line. */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseProcStat, readStat } from '../../../src/proc/stat';

const linux = process.platform === 'linux';

describe('/proc/<pid>/stat', function () {
  before(function () {
    if (!linux) this.skip();
  });

  it('reads this process: its pid, parent, process group, session and start time', () => {
    const stat = readStat(process.pid);
    assert.ok(stat);
    assert.equal(stat.pid, process.pid);
    assert.equal(stat.ppid, process.ppid);
    assert.equal(stat.state, 'R', 'the process reading its own stat is running');
    // 0 when the group or session leader is outside this pid namespace (a container, unshare -p).
    assert.ok(Number.isInteger(stat.pgrp) && stat.pgrp >= 0);
    assert.ok(Number.isInteger(stat.session) && stat.session >= 0);
    assert.ok(Number.isInteger(stat.startTime) && stat.startTime > 0);
    assert.ok(stat.threads > 1, `Node runs several threads, ${stat.threads} read`);
  });

  it('reads a new session leader: its own pid as process group and session', async () => {
    const child = spawn('/bin/sleep', ['30'], { stdio: 'ignore', detached: true }); // setsid(2)
    try {
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      const stat = readStat(child.pid!);
      assert.ok(stat);
      assert.equal(stat.pid, child.pid);
      assert.equal(stat.ppid, process.pid);
      assert.equal(stat.pgrp, child.pid);
      assert.equal(stat.session, child.pid);
      assert.equal(stat.ttyNr, 0, 'setsid leaves the new session without a controlling terminal');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('keeps the fields in place when the command name holds spaces and parentheses', async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-stat-'));
    const name = 'a) b (c'; // comm is the first 15 bytes of the file name
    fs.copyFileSync(fs.realpathSync('/bin/sleep'), path.join(tmp, name));
    fs.chmodSync(path.join(tmp, name), 0o755);
    const child = spawn(path.join(tmp, name), ['30'], { stdio: 'ignore' });
    try {
      await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
      let stat = readStat(child.pid!);
      for (let i = 0; i < 50 && stat?.comm !== name; i++) {
        await new Promise((r) => setTimeout(r, 20)); // until exec replaced node's fork
        stat = readStat(child.pid!);
      }
      assert.ok(stat);
      assert.equal(stat.comm, name);
      assert.equal(stat.ppid, process.pid);
      assert.equal(stat.session, readStat(process.pid)!.session);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('tells a kernel thread by its flags, not by its parent: kthreadd is one, this process is not, whatever pid its parent has', () => {
    // In a PID namespace (a container) pid 2 is an ordinary process; the kernel's flag says which is a thread.
    const kthreadd = fs.readdirSync('/proc').find((name) => /^\d+$/.test(name) && readStat(Number(name))?.comm === 'kthreadd');
    if (kthreadd) assert.equal(readStat(Number(kthreadd))?.kernelThread, true);
    assert.equal(readStat(process.pid)?.kernelThread, false);
    const line = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    const asChildOfTwo = line.replace(/\) (\S+) (\d+)/, ') $1 2');
    assert.equal(parseProcStat(asChildOfTwo, process.pid)?.kernelThread, false, 'a child of pid 2 is not a kernel thread by that alone');
  });

  it('is undefined for a process that does not exist', () => {
    // pid_max is at most 2^22 on Linux.
    assert.equal(readStat(2 ** 22 + 1), undefined);
  });

  it('refuses text that is not a stat line instead of returning NaN fields', () => {
    const line = fs.readFileSync(`/proc/${process.pid}/stat`, 'utf8');
    assert.equal(parseProcStat(line, process.pid)?.ppid, process.ppid);
    assert.equal(parseProcStat('', 1), undefined);
    assert.equal(parseProcStat('1 (bash S 0 1 1', 1), undefined, 'no closing parenthesis');
    assert.equal(parseProcStat('1 (bash) S 0 1 1 34816 1', 1), undefined, 'too few fields');
    assert.equal(parseProcStat(line.replace(/\) (\S+) (\d+)/, ') $1 x'), process.pid), undefined, 'a letter where ppid goes');
  });
});
