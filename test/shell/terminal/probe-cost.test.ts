/**
 * What a waiting send costs: the foreground group is found from the session's own process tree
 * (processTree.ts), including a member whose parent exited, and the readiness poll backs off
 * while nothing changes (pollBackoff.ts). Real node-pty, real bash, real processes; the poll is
 * observed through the number of looks each send logs, never through timing.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PollBackoff } from '../../../src/terminal/readiness/pollBackoff';
import * as proc from '../../../src/proc/procProbe';
import { readStat } from '../../../src/proc/stat';
import { MAX_LOOK_PROCESSES, SessionProcessTree } from '../../../src/proc/processTree';
import { sessionProcesses } from '../../../src/proc/sessions';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';
import { until } from '../../helpers/wait';
import { procListings } from '../../helpers/procListings';
import { Harness, harness } from '../../helpers/terminalHarness';

const linux = proc.probeAvailable() && proc.childListsAvailable();

describe('the poll backs off while nothing changes (no PTY)', () => {
  it('doubles the delay after each quiet look up to the ceiling, and returns to the base on a change or output', () => {
    const b = new PollBackoff(25, 500);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6, 7].map(() => b.next({ changed: false })),
      [50, 100, 200, 400, 500, 500, 500],
    );
    assert.equal(b.next({ changed: true }), 25);
    b.next({ changed: false });
    b.next({ changed: false });
    assert.equal(b.reset(), 25);
    assert.equal(b.next({ changed: false }), 50);
  });

  it('a deadline the look waits for shortens the delay; a base above the ceiling is kept', () => {
    const b = new PollBackoff(25, 500);
    for (let i = 0; i < 10; i++) b.next({ changed: false });
    assert.equal(b.next({ changed: false, dueInMs: 120 }), 120);
    assert.equal(b.next({ changed: false, dueInMs: 0 }), 1);
    assert.equal(new PollBackoff(800, 500).next({ changed: false }), 800);
  });
});

(linux ? describe : describe.skip)('the session process tree (pty-bash, Linux /proc)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  let shell: number;
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
  const lastSend = () => h.log.lines.filter((l) => l.includes('send finished')).at(-1) ?? '';
  const looks = () => Number(/, (\d+) looks/.exec(lastSend())?.[1]);
  const fullScans = () => Number(/, (\d+) full scans of \/proc/.exec(lastSend())?.[1]);
  const probeLooks = () => Number(/, (\d+) probe looks/.exec(lastSend())?.[1]);
  const onOutput = () => Number(/, (\d+) evaluations on output/.exec(lastSend())?.[1]);

  beforeEach(async () => {
    h = harness({ quietThresholdMs: 20_000 });
    id = (await h.service.open(h.owner)).sessionId;
    shell = Number((await send('echo $$')).output);
  });
  afterEach(async () => h.dispose());

  const tree = () => new SessionProcessTree(shell, readStat(shell)!.startTime);
  const tpgid = () => readStat(shell)!.tpgid;

  it('names a program whose command line is 100 000 empty arguments without stalling: at most 200 characters', async () => {
    // A program in the session chooses its command line (up to ARG_MAX, and it may rewrite it);
    // runs of NULs in it once made the naming scan quadratic and froze the host for minutes.
    const script = path.join(h.tmp, 'many-args.py');
    fs.writeFileSync(
      script,
      "import os, sys\nos.execv(sys.executable, [sys.executable, '-c', 'import time; time.sleep(60)'] + [''] * 100000 + ['x'])\n",
    );
    const r = await send(`python3 ${script}`, 1500);
    assert.equal(r.waitReason, 'timeout');
    // A version manager's python3 (pyenv's shim is a bash script) may take a while to exec Python.
    await until(
      'python to run in the foreground',
      () => {
        const receiver = h.service.sendTarget(h.owner, id).receiver;
        return receiver.kind === 'program' && /^\S*python3\S* -c /.test(receiver.process.command);
      },
      30_000,
    );
    const started = Date.now();
    const target = h.service.sendTarget(h.owner, id);
    const ms = Date.now() - started;
    assert.equal(target.receiver.kind, 'program');
    const command = target.receiver.kind === 'program' ? target.receiver.process.command : '';
    assert.match(command, /^\S*python3\S* -c import time; time\.sleep\(60\) {10}/);
    assert.ok(command.length <= 200, `${command.length} characters`);
    // A hang detector, far above the cost of one look (milliseconds): the quadratic scan took minutes.
    assert.ok(ms < 2000, `naming the program took ${ms} ms`);
  });

  it('finds the foreground pipeline from the shell’s descendants, without a scan of /proc', async () => {
    const pidFile = path.join(h.tmp, 'pids');
    const r = await send(`sh -c 'echo $$ > ${pidFile}; exec sleep 30' | cat`, 1000);
    assert.equal(r.waitReason, 'timeout');
    const t = tree();
    const { members: group, complete } = t.look(tpgid());
    assert.equal(complete, true);
    const sleeper = Number(fs.readFileSync(pidFile, 'utf8'));
    assert.ok(
      group.some((p) => p.pid === sleeper && p.comm === 'sleep'),
      JSON.stringify(group),
    );
    assert.ok(
      group.some((p) => p.comm === 'cat'),
      JSON.stringify(group),
    );
    assert.ok(group.every((p) => p.pgrp === tpgid() && p.session === shell));
    assert.ok(!group.some((p) => p.pid === shell), 'the shell is in its own group');
    assert.equal(t.fullScanCount, 0);
    h.service.signal(h.owner, id, 'SIGINT');
  });

  it('still finds a group member whose parent exited (reparented out of the shell’s tree)', async () => {
    const pidFile = path.join(h.tmp, 'orphan');
    // sh starts a sleep in the background and exits: the sleep keeps the pipe open, so cat (and
    // the job) runs on, and the sleep now belongs to a reaper outside the shell's tree.
    const r = await send(`sh -c 'sleep 300 & echo $! > ${pidFile}; exit' | cat`, 1000);
    assert.equal(r.waitReason, 'timeout');
    const orphan = Number(fs.readFileSync(pidFile, 'utf8'));
    const descendants = new Set<number>([shell]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const pid of [...descendants]) {
        for (const c of proc.childPids(pid)) {
          if (!descendants.has(c)) {
            descendants.add(c);
            grew = true;
          }
        }
      }
    }
    assert.ok(!descendants.has(orphan), 'the sleep was reparented out of the shell’s tree');
    const t = tree();
    const { members: group, complete } = t.look(tpgid());
    assert.equal(complete, true);
    assert.ok(
      group.some((p) => p.pid === orphan),
      `orphan ${orphan} not among ${JSON.stringify(group.map((p) => p.pid))}`,
    );
    assert.equal(t.fullScanCount, 0, 'found through the reaper’s children, not a full scan');
    h.service.signal(h.owner, id, 'SIGINT');
    process.kill(orphan, 'SIGKILL');
  });

  it('a group member whose parent exited and that reads the terminal is seen waiting for input; its answer prints', async () => {
    const r = await send(`sh -c '(read -r line; echo "got $line") </dev/tty & exit' | cat`);
    assert.equal(r.waitReason, 'stdin_read');
    assert.equal(r.waiting, 'program-input');
    const after = await send('hello');
    assert.match(after.output, /got hello/);
    assert.equal(after.waiting, 'shell-prompt');
  });

  it('a silent command is looked at far less often than one that keeps printing', async () => {
    const silent = await send('sleep 3');
    assert.equal(silent.waiting, 'shell-prompt');
    const quietLooks = looks();
    assert.equal(fullScans(), 0, lastSend());
    const busy = await send('for i in $(seq 30); do echo $i; sleep 0.1; done');
    assert.equal(busy.waiting, 'shell-prompt');
    const busyLooks = looks();
    // A fixed 25 ms poll would look about 120 times during 3 s of sleep.
    assert.ok(quietLooks < 40, `${quietLooks} looks during a silent sleep 3`);
    assert.ok(busyLooks > 2 * quietLooks, `${busyLooks} looks while printing vs ${quietLooks} while silent`);
  });

  it('typed input echoing back is not evaluated chunk by chunk: only the prompt that answers the send is', async () => {
    // 60 000 characters on one line: readline echoes them in many chunks, none of which can
    // answer the send (no new prompt yet); the prompt after the command does, once.
    const r = await send(`: ${'a'.repeat(60_000)}`);
    assert.equal(r.waiting, 'shell-prompt');
    assert.ok(onOutput() <= 2, lastSend());
  });

  it('output that keeps flowing is not probed: a blocked read counts only after quiet, so looking during output cannot decide', async () => {
    const r = await send('yes 0123456789abcdef | head -c 24000000');
    assert.equal(r.waiting, 'shell-prompt');
    assert.ok(looks() >= 10, `the send should print for a while: ${lastSend()}`);
    // Before, every look while it printed read the group's waits (one per poll interval).
    assert.ok(probeLooks() <= Math.max(3, looks() / 5), lastSend());
  });
});

(linux ? describe : describe.skip)('a session with thousands of processes (pty-bash, Linux /proc)', function () {
  this.timeout(400_000);
  /** Processes the test's command starts, all in its foreground process group, all asleep. */
  const SLEEPERS = 2000;
  let h: Harness;
  let id: string;

  beforeEach(async () => {
    h = harness({ quietThresholdMs: 240_000 });
    id = (await h.service.open(h.owner)).sessionId;
  });
  afterEach(async () => h.dispose());

  /** Starts SLEEPERS sleeps in one process group (a non-interactive bash has no job control), which then reads a line. */
  const crowd = (ignoreHangup = false) =>
    `bash -c '${ignoreHangup ? 'trap "" HUP; ' : ''}for i in $(seq ${SLEEPERS}); do sleep 600 & done; echo forked; read -r x; echo "got $x"; kill $(jobs -p) 2>/dev/null'`;

  it('a look reads a bounded number of processes however many the session has, and says when it was cut; the read of a program among 2000 processes is still proven', async () => {
    const shell = Number((await h.service.send(h.owner, id, { input: 'echo $$' })).output);
    const { result: r, ...held } = await withLagProbe(() => h.service.send(h.owner, id, { input: crowd(), timeoutMs: 240_000 }));
    assert.match(r.output, /forked/);
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    // A hang detector: before, each look read every process of the session, hundreds of ms per
    // look on a busy machine; a look of MAX_LOOK_PROCESSES takes a few ms.
    assert.ok(held.maxHeldMs < 300, `this thread was ${heldText(held)}`);
    const tpgid = readStat(shell)!.tpgid;
    const look = new SessionProcessTree(shell, readStat(shell)!.startTime).look(tpgid);
    assert.equal(look.complete, false, 'the look stopped before reading every process');
    assert.ok(look.read <= MAX_LOOK_PROCESSES, `${look.read} processes read in one look`);
    assert.ok(look.members.length > 0 && look.members.every((p) => p.pgrp === tpgid));
    const after = await h.service.send(h.owner, id, { input: 'hello', timeoutMs: 60_000 });
    assert.match(after.output, /got hello/);
  });

  it('a close waiting on 2000 processes that ignore SIGHUP never holds this thread long, and ends them all', async () => {
    const shell = Number((await h.service.send(h.owner, id, { input: 'echo $$' })).output);
    const r = await h.service.send(h.owner, id, { input: crowd(true), timeoutMs: 240_000 });
    assert.match(r.output, /forked/);
    const members = sessionProcesses(shell).map((p) => p.pid);
    assert.ok(members.length > SLEEPERS, `${members.length} processes in the session`);
    const held = await withLagProbe(() => h.service.close(h.owner, id));
    // Before, each round of the close read every process on the machine on this thread.
    assert.ok(held.maxHeldMs < 300, `the close: this thread was ${heldText(held)}`);
    // A zombie has ended: it waits only for the reaper (init, or whatever runs as pid 1 in a PID
    // namespace; node there reaps none), so it counts as gone.
    await until('every process of the session to be gone', () => sessionProcesses(shell).every((p) => p.state === 'Z'), 10_000);
  });
});

(linux ? describe : describe.skip)('a look at a session whose shell is gone (Linux /proc)', function () {
  this.timeout(60_000);

  it('never scans /proc on this thread: a job that outlived the shell is found by a scan off it, and no look says it is complete', async () => {
    // A session of its own (detached: setsid) whose leader, bash, leaves a job behind when killed.
    const bash = spawn('bash', ['-c', 'sleep 600 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
    const job = Number(await new Promise<string>((resolve) => bash.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
    try {
      const start = readStat(bash.pid!)!.startTime;
      bash.kill('SIGKILL');
      await until('the shell to be gone', () => readStat(bash.pid!) === undefined || readStat(bash.pid!)!.state === 'Z');
      await new Promise<void>((resolve) =>
        bash.exitCode !== null || bash.signalCode !== null ? resolve() : bash.once('exit', () => resolve()),
      );
      const tree = new SessionProcessTree(bash.pid!, start);
      let first: ReturnType<SessionProcessTree['look']> | undefined;
      // A scan reads every process on the machine: 218 ms with 5 100 processes.
      assert.equal(
        procListings(() => (first = tree.look(bash.pid!))),
        0,
        'no scan of /proc on this thread',
      );
      assert.equal(first?.complete, false);
      const found = await until('a scan off this thread to find the job', () => {
        const look = tree.look(bash.pid!);
        return look.members.length > 0 && look;
      });
      assert.deepEqual(
        found.members.map((p) => p.pid),
        [job],
      );
      assert.equal(found.complete, false, 'what a scan found may have company since');
    } finally {
      process.kill(job, 'SIGKILL');
    }
  });
});
