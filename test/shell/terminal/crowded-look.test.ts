/**
 * Looks at a session with more processes than one look reads (processTree.ts MAX_LOOK_PROCESSES):
 * a cut look never makes a send claim a read it did not see, and what a cut look could not see
 * costs a proof only where it must. Real node-pty, real bash, real processes.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as proc from '../../../src/proc/procProbe';
import { readStat } from '../../../src/proc/stat';
import { sessionProcesses } from '../../../src/proc/sessions';
import { MAX_LOOK_PROCESSES, SessionProcessTree, type GroupLook } from '../../../src/proc/processTree';
import { heldText, withLagProbe } from '../../helpers/eventLoopLag';
import { until } from '../../helpers/wait';
import { procListings } from '../../helpers/procListings';
import { Harness, harness } from '../../helpers/terminalHarness';

const linux = proc.probeAvailable() && proc.childListsAvailable();

describe('waits new since a cut look (no PTY)', () => {
  const wait = (pid: number, switches = 1): proc.TtyWait => ({ pid, tid: pid, switches, via: 'read' });
  const cut = (pgrp: number, examined: number[], waits: proc.TtyWait[] = []): proc.GroupWaits => ({
    pgrp,
    waits,
    examined: new Set(examined),
    complete: false,
  });
  const now = (pgrp: number, waits: proc.TtyWait[]): proc.GroupWaits => ({
    pgrp,
    waits,
    examined: new Set(waits.map((w) => w.pid)),
    complete: true,
  });

  it('in the group the cut look was of, only a process it examined can wait anew', () => {
    const before = cut(10, [10, 11], [wait(11, 5)]);
    assert.deepEqual(proc.newWaits(now(10, [wait(10), wait(11, 5), wait(11, 6), wait(12)]), before), [wait(10), wait(11, 6)]);
  });

  it('in another group (a command started since) a cut of the earlier group hides nothing', () => {
    // The look before the send was of the shell's group, cut by a crowded background job.
    assert.deepEqual(proc.newWaits(now(20, [wait(21)]), cut(10, [10])), [wait(21)]);
  });

  it('a look that found nothing and missed nothing makes every wait new', () => {
    assert.deepEqual(proc.newWaits(now(20, [wait(21)]), proc.NO_WAITS), [wait(21)]);
  });
});

/**
 * A complete look at the foreground group of the session led by `shell`, by a tree of its own.
 * Its first looks may be cut while it learns which children of the shell's ancestors are outside
 * the session (processes of earlier tests, ended and not yet reaped, are counted there).
 */
async function completeLook(shell: number): Promise<GroupLook> {
  const tree = new SessionProcessTree(shell, readStat(shell)!.startTime);
  return until('a complete look', () => {
    const look = tree.look(readStat(shell)!.tpgid);
    return look.complete && look;
  });
}

/**
 * A pty-bash session opened before each test of the calling `describe` and closed after it, with
 * its shell's pid; `send` types `input` and waits at most `timeoutMs` (default `sendTimeoutMs`).
 */
function liveSession(quietThresholdMs: number, sendTimeoutMs: number) {
  const s = {
    h: undefined as unknown as Harness,
    id: '',
    shell: 0,
    send: (input: string, timeoutMs = sendTimeoutMs) => s.h.service.send(s.h.owner, s.id, { input, timeoutMs }),
  };
  beforeEach(async () => {
    s.h = harness({ quietThresholdMs });
    s.id = (await s.h.service.open(s.h.owner)).sessionId;
    s.shell = Number((await s.send('echo $$')).output);
  });
  afterEach(async () => s.h.dispose());
  return s;
}

(linux ? describe : describe.skip)('a look cut at MAX_LOOK_PROCESSES (pty-bash, Linux /proc)', function () {
  this.timeout(120_000);
  /** More processes than one look reads. */
  const CROWD = MAX_LOOK_PROCESSES + 72;
  const s = liveSession(60_000, 20_000);
  const send = s.send;

  /** A background job of CROWD sleeping processes (its own process group), started at the prompt. */
  const backgroundCrowd = async () => {
    const ready = path.join(s.h.tmp, 'crowd-ready');
    const r = await send(`(for i in $(seq ${CROWD}); do sleep 600 & done; touch ${ready}; wait) >/dev/null 2>&1 &`);
    assert.equal(r.waiting, 'shell-prompt');
    await until('the background crowd', () => fs.existsSync(ready), 30_000);
    assert.ok(sessionProcesses(s.shell).length > CROWD, 'the session holds the crowd');
  };

  it('a cut look returns every process it read: the foreground command behind a crowded background job', async () => {
    await backgroundCrowd();
    const pidFile = path.join(s.h.tmp, 'sleeper');
    const r = await send(`sh -c 'echo $$ > ${pidFile}; exec sleep 60'`, 1000);
    assert.equal(r.waitReason, 'timeout');
    const sleeper = Number(fs.readFileSync(pidFile, 'utf8'));
    const tpgid = readStat(s.shell)!.tpgid;
    assert.equal(tpgid, sleeper);
    const look = new SessionProcessTree(s.shell, readStat(s.shell)!.startTime).look(tpgid);
    assert.equal(look.complete, false, 'the look was cut');
    assert.ok(look.read <= MAX_LOOK_PROCESSES, `${look.read} processes read`);
    assert.deepEqual(
      look.members.map((p) => p.pid),
      [sleeper],
    );
    s.h.service.signal(s.h.owner, s.id, 'SIGINT');
  });

  it('a command started at the prompt while a background job holds more processes than a look reads is still proven reading', async () => {
    await backgroundCrowd();
    const r = await send(`python3 -c 'print("got", input())'`);
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    const after = await send('hello');
    assert.match(after.output, /got hello/);
    assert.equal(after.waiting, 'shell-prompt');
  });

  it('a reader one level below the foreground command is found before the processes of a crowded background job', async () => {
    await backgroundCrowd();
    // Python starts the reader as its child: the reader is in the foreground group, below it.
    const r = await send(`python3 -c 'import subprocess, sys; subprocess.run([sys.executable, "-c", "print(\\"got\\", input())"])'`);
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    const after = await send('hello');
    assert.match(after.output, /got hello/);
  });

  it('a reader its own group hides behind more processes than a look reads ends the send honestly, never as read', async () => {
    // The reader is bash's oldest child; the newer sleeps of its group are read first and fill the look.
    const ready = path.join(s.h.tmp, 'hidden-ready');
    const r = await send(
      `bash -c 'python3 -c "print(\\"got\\", input())" </dev/tty & for i in $(seq ${CROWD}); do sleep 600 & done; touch ${ready}; wait'`,
      8000,
    );
    assert.ok(fs.existsSync(ready), 'the crowd was started');
    assert.equal(r.waitReason, 'timeout', JSON.stringify(r));
    const receiver = s.h.service.sendTarget(s.h.owner, s.id).receiver;
    assert.equal(receiver.kind, 'program');
    assert.equal(receiver.kind === 'program' ? receiver.reading : 'none', undefined, 'not known either way');
    await assert.rejects(send('hello'), (e: Error) => /more processes, threads or open descriptors than one look reads/.test(e.message));
    s.h.service.signal(s.h.owner, s.id, 'SIGINT');
  });
});

(linux ? describe : describe.skip)('a foreground group whose members the walk cannot reach (pty-bash, Linux /proc)', function () {
  this.timeout(120_000);
  const s = liveSession(60_000, 20_000);
  const send = s.send;

  /**
   * A command that gives the terminal to a new group of its own whose only member, the reader,
   * has a parent that left the session with setsid(2): the reader stays in the session (a session
   * is left only by the caller of setsid), but no walk of the session's tree reaches it.
   */
  const hiddenReader = (spacers = 0) => {
    const script = path.join(s.h.tmp, 'hidden-reader.py');
    const pids = path.join(s.h.tmp, 'hidden-pids');
    fs.writeFileSync(
      script,
      `import os, signal, sys, time
tty = os.open('/dev/tty', os.O_RDWR)
q = os.fork()
if q == 0:
    os.setpgid(0, 0)
    for _ in range(${spacers}):
        if os.fork() == 0:
            os._exit(0)
        os.wait()
    x = os.fork()
    if x == 0:
        y = os.fork()
        if y == 0:
            time.sleep(0.3)
            print('got', sys.stdin.readline().strip(), flush=True)
            os._exit(0)
        os.setsid()
        with open(${JSON.stringify(pids)} + '.tmp', 'w') as f:
            f.write(f'{os.getpid()} {y}')
        os.rename(${JSON.stringify(pids)} + '.tmp', ${JSON.stringify(pids)})
        os.waitpid(y, 0)
        os._exit(0)
    time.sleep(0.2)
    os._exit(0)
os.setpgid(q, q)
signal.signal(signal.SIGTTOU, signal.SIG_IGN)
os.tcsetpgrp(tty, q)
os.waitpid(q, 0)
time.sleep(600)
`,
    );
    return {
      command: `python3 ${script}`,
      pids: async () =>
        (await until('the hidden reader', () => fs.existsSync(pids) && fs.readFileSync(pids, 'utf8'))).split(' ').map(Number),
    };
  };

  /**
   * Runs {@link hiddenReader} (sent with `timeoutMs`) and resolves the reader's pid once it is
   * alone in the foreground group, whose leader has exited.
   */
  const leaderlessReader = async (timeoutMs: number, forkedBefore?: number) => {
    const { command, pids } = hiddenReader(forkedBefore);
    await send(command, timeoutMs);
    const reader = (await pids())[1]!;
    await until('the reader alone in the foreground group', () => {
      const stat = readStat(reader);
      return stat !== undefined && stat.pgrp === readStat(s.shell)?.tpgid && readStat(stat.pgrp) === undefined;
    });
    return reader;
  };

  /**
   * Runs `python3 <script>` (`body(pids)`) where the foreground job's leader forks `left`, which
   * forks the reader (in the session and the leader's group) and then leaves the session with
   * setsid(2); the script writes `left reader` to `pids` once laid out (see the callers). The
   * reader must be found, proven reading, and typed to.
   */
  const readerBelowLeft = async (name: string, body: (pids: string) => string) => {
    const script = path.join(s.h.tmp, `${name}.py`);
    const pids = path.join(s.h.tmp, `${name}-pids`);
    fs.writeFileSync(script, body(pids));
    const r = await send(`python3 -W ignore ${script}`, 10_000);
    const [left, reader] = fs.readFileSync(pids, 'utf8').split(' ').map(Number);
    assert.notEqual(readStat(left!)?.session, s.shell, 'the middle process left the session');
    assert.equal(readStat(reader!)?.session, s.shell, 'the reader is in the session');
    const look = await completeLook(s.shell);
    assert.deepEqual(
      look.members.map((p) => p.pid).sort(),
      [readStat(s.shell)!.tpgid, reader].sort(),
      'the look finds the reader below the process that left',
    );
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    assert.match((await send('hello')).output, /got hello/);
  };

  /** Python that writes `text` to `file` at once (renamed into place). */
  const writePids = (file: string, text: string) => `with open(${JSON.stringify(file)} + '.tmp', 'w') as f:
        f.write(${text})
    os.rename(${JSON.stringify(file)} + '.tmp', ${JSON.stringify(file)})`;

  it('a reader below a member that left the session, in the group of a leader the walk reaches, is proven reading and typed to', async () => {
    // The leader (python3, the foreground job) forks a child that forks the reader and then calls
    // setsid(2): the child leaves the session, the reader stays in it and in the leader's group.
    await readerBelowLeft(
      'reader-below-setsid',
      (pids) => `import os, sys, time
a = os.fork()
if a == 0:
    m = os.fork()
    if m == 0:
        time.sleep(0.3)
        print('got', sys.stdin.readline().strip(), flush=True)
        os._exit(0)
    os.setsid()
    ${writePids(pids, "f'{os.getpid()} {m}'")}
    os.waitpid(m, 0)
    os._exit(0)
os.waitpid(a, 0)
`,
    );
  });

  it('a reader forked before the setsid by a thread that has since exited, listed after a child forked since, is proven reading', async () => {
    // A thread of the process that leaves forks the reader and ends after the setsid and the next
    // fork: the kernel moves a dead thread's children to the tail of a live thread's list
    // (kernel/exit.c forget_original_parent), after the child forked in the new session.
    await readerBelowLeft(
      'reader-of-dead-thread',
      (pids) => `import os, sys, threading, time
a = os.fork()
if a == 0:
    box = {}
    forked, leave = threading.Event(), threading.Event()
    def forker():
        m = os.fork()
        if m == 0:
            time.sleep(0.5)
            print('got', sys.stdin.readline().strip(), flush=True)
            os._exit(0)
        box['m'] = m
        forked.set()
        leave.wait()
    t = threading.Thread(target=forker)
    t.start()
    forked.wait()
    os.setsid()
    b = os.fork()
    if b == 0:
        time.sleep(600)
        os._exit(0)
    leave.set()
    t.join()
    ${writePids(pids, 'f\'{os.getpid()} {box["m"]}\'')}
    os.waitpid(box['m'], 0)
    os.kill(b, 9)
    os._exit(0)
os.waitpid(a, 0)
`,
    );
  });

  it('a reader adopted, after its parent exited, by a process that left the session as a child subreaper is proven reading', async () => {
    // The process that leaves is a child subreaper (prctl PR_SET_CHILD_SUBREAPER): the reader,
    // orphaned by its parent, is moved to the tail of its list (kernel/exit.c), after the child
    // it forked in its own session.
    await readerBelowLeft(
      'reader-adopted-by-left',
      (pids) => `import ctypes, os, sys, time
a = os.fork()
if a == 0:
    assert ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0) == 0
    r_read, r_write = os.pipe()
    p = os.fork()
    if p == 0:
        m = os.fork()
        if m == 0:
            time.sleep(0.8)
            print('got', sys.stdin.readline().strip(), flush=True)
            os._exit(0)
        os.write(r_write, str(m).encode())
        time.sleep(0.3)
        os._exit(0)
    m = int(os.read(r_read, 32))
    os.setsid()
    b = os.fork()
    if b == 0:
        time.sleep(600)
        os._exit(0)
    os.waitpid(p, 0)
    # The reader is ours now (stat field 4, its parent).
    while int(open(f'/proc/{m}/stat').read().rsplit(')', 1)[1].split()[1]) != os.getpid():
        time.sleep(0.01)
    ${writePids(pids, "f'{os.getpid()} {m}'")}
    os.waitpid(m, 0)
    os.kill(b, 9)
    os._exit(0)
os.waitpid(a, 0)
`,
    );
  });

  it('a member that left the session with more processes of its own than a look reads cuts the look at its bound, after the group it looks at', async () => {
    // Like `sudo` with use_pty: a child calls setsid(2), then starts a crowd in its new session.
    // Nothing of ours is below the crowd, but which of the leader's children came before its
    // setsid only their reads tell: the look reads what it may, then says it is not complete.
    const ready = path.join(s.h.tmp, 'left-crowd-ready');
    const r = await send(
      `python3 -c "
import os, subprocess, time
if os.fork() == 0:
    os.setsid()
    crowd = [subprocess.Popen(['sleep', '600']) for _ in range(${MAX_LOOK_PROCESSES + 72})]
    open('${ready}', 'w').write(str(os.getpid()))
    time.sleep(600)
os.wait()"`,
      1000,
    );
    await until('the crowd in the new session', () => fs.existsSync(ready) && fs.readFileSync(ready, 'utf8') !== '', 30_000);
    // Outside the session, nothing of the session's ends it: its group is ended here.
    const left = Number(fs.readFileSync(ready, 'utf8'));
    try {
      const tpgid = readStat(s.shell)!.tpgid;
      const look = new SessionProcessTree(s.shell, readStat(s.shell)!.startTime).look(tpgid);
      assert.equal(look.complete, false, 'the look was cut');
      assert.ok(look.read <= MAX_LOOK_PROCESSES, `${look.read} stat files read`);
      assert.deepEqual(
        look.members.map((p) => p.pid),
        [tpgid],
      );
      assert.equal(r.waitReason, 'timeout');
    } finally {
      process.kill(-left, 'SIGKILL');
    }
  });

  it('no look at that group says it is complete: the reader is found only by a search of /proc, and may be missed before', async () => {
    const reader = await leaderlessReader(1500);
    const tpgid = readStat(s.shell)!.tpgid;
    const tree = new SessionProcessTree(s.shell, readStat(s.shell)!.startTime);
    const first = tree.look(tpgid);
    assert.deepEqual(first.members, []);
    assert.equal(first.complete, false, 'the group has members the walk did not reach: the look is not complete');
    const found = await until('the search of /proc to find the reader', () => {
      const look = tree.look(tpgid);
      return look.members.length > 0 && look;
    });
    assert.deepEqual(
      found.members.map((p) => p.pid),
      [reader],
    );
    assert.equal(found.complete, false, 'members found by a search of /proc that has ended may have company since');
  });

  it('a send to the hidden reader is typed once a search found it, also while the next search is under way', async () => {
    const { command, pids } = hiddenReader();
    const r = await send(command);
    await pids();
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    // Past the time a search's answer is used alone: the next look starts a new one.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const after = await send('hello', 3000).catch((e: Error) => e);
    assert.ok(
      !(after instanceof Error) || !/than one look reads/.test(after.message),
      `refused as crowded: ${after instanceof Error ? after.message : ''}`,
    );
    assert.ok(!(after instanceof Error), `refused: ${after instanceof Error ? after.message : ''}`);
    assert.match(after.output, /got hello/);
  });

  it('a signal to that group, whose leader has exited, reaches it without a scan of /proc on this thread', async () => {
    // Over before the send's first look: the session has not searched for the group.
    const reader = await leaderlessReader(100);
    let result: ReturnType<typeof s.h.service.signal> | undefined;
    // A scan reads every process on the machine: 218 ms with 5 100 processes.
    assert.equal(
      procListings(() => (result = s.h.service.signal(s.h.owner, s.id, 'SIGTERM'))),
      0,
    );
    assert.equal(result?.delivered, true, JSON.stringify(result));
    await until('the reader to end', () => readStat(reader) === undefined);
  });

  it('when none of its members is near its leader, the signal is not delivered but says why, and a retry reaches it once they are found', async () => {
    const reader = await leaderlessReader(100, 200);
    let result: ReturnType<typeof s.h.service.signal> | undefined;
    assert.equal(
      procListings(() => (result = s.h.service.signal(s.h.owner, s.id, 'SIGTERM'))),
      0,
    );
    // 200 processes were forked between the leader and the reader: it is not near the leader.
    assert.equal(result?.delivered, false, JSON.stringify(result));
    assert.match(result?.reason ?? '', /searched for in \/proc: send the signal again in a moment/);
    await until('a retry to be delivered', () => s.h.service.signal(s.h.owner, s.id, 'SIGTERM').delivered);
    await until('the reader to end', () => readStat(reader) === undefined);
  });
});

(linux ? describe : describe.skip)('a reader with many threads or descriptors (pty-bash, Linux /proc)', function () {
  this.timeout(240_000);
  const s = liveSession(120_000, 60_000);
  const send = s.send;

  /** As many descriptors as this process may open, at most 20 000 (python3: raised to the hard limit). */
  const manyDescriptors = `import os, resource
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
n = min(20000, hard if hard != resource.RLIM_INFINITY else 20000)
resource.setrlimit(resource.RLIMIT_NOFILE, (n, hard))
null = os.open('/dev/null', os.O_RDONLY)
kept = [os.dup(null) for _ in range(n - 200)]
`;

  /** Runs `body` (python3) in the session: it waits for a line, then prints "got <line>" and exits. */
  const proven = async (name: string, body: string) => {
    const script = path.join(s.h.tmp, `${name}.py`);
    fs.writeFileSync(script, body);
    const { result: r, ...held } = await withLagProbe(() => send(`python3 ${script}`));
    assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
    assert.equal(r.waiting, 'program-input');
    // A hang detector, as in terminal-probe-cost.test.ts: a look of a bounded size takes a few ms.
    assert.ok(held.maxHeldMs < 300, `this thread was ${heldText(held)}`);
    const { result: after, ...afterHeld } = await withLagProbe(() => send('hello'));
    assert.match(after.output, /got hello/);
    assert.ok(afterHeld.maxHeldMs < 300, `this thread was ${heldText(afterHeld)}`);
  };

  it('a program polling the terminal from 21 threads, with thousands of descriptors open, is proven reading without holding this thread', async () => {
    await proven(
      'poll-fds',
      `${manyDescriptors}import select, sys, threading
def wait():
    p = select.poll()
    p.register(0, select.POLLIN)
    p.poll()
for _ in range(20):
    threading.Thread(target=wait, daemon=True).start()
wait()
print('got', sys.stdin.readline().strip(), flush=True)
`,
    );
  });

  it('a program reading the terminal while four of its threads wait in epoll on thousands of descriptors is proven reading without holding this thread', async () => {
    await proven(
      'epoll-fds',
      `${manyDescriptors}import select, sys, threading
ep = select.epoll()
for fd in kept:
    os.close(fd)
    ep.register(os.eventfd(0), select.EPOLLIN)
for _ in range(4):
    threading.Thread(target=ep.poll, daemon=True).start()
print('got', sys.stdin.readline().strip(), flush=True)
`,
    );
  });

  it('a program reading the terminal while another of its threads waits in epoll on half a million entries is proven reading without holding this thread', async () => {
    // An epoll set holds one entry per (open file, descriptor number) registered: a few open
    // files registered under many numbers, closed again, make a set as large as the program
    // likes. The kernel formats the whole set at any read of its fdinfo, however little is read.
    await proven(
      'epoll-entries',
      `import os, resource, select, sys, threading
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
limit = min(20000, hard if hard != resource.RLIM_INFINITY else 20000)
resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
numbers = range(limit // 2, limit)
ep = select.epoll()
entries = 0
while entries < 500000:
    r, w = os.pipe()
    for n in numbers:
        os.dup2(r, n)
        ep.register(n, select.EPOLLIN)
        os.close(n)
    entries += len(numbers)
threading.Thread(target=ep.poll, daemon=True).start()
print('got', sys.stdin.readline().strip(), flush=True)
`,
    );
  });

  it('a program waiting in epoll on the terminal registered after thousands of other descriptors is proven reading without holding this thread', async () => {
    await proven(
      'epoll-last',
      `${manyDescriptors}import select, sys
ep = select.epoll()
for fd in kept:
    os.close(fd)
    ep.register(os.eventfd(0), select.EPOLLIN)
ep.register(0, select.EPOLLIN)
ep.poll()
print('got', sys.stdin.readline().strip(), flush=True)
`,
    );
  });

  for (const [name, open] of [
    ['its standard input', '0'],
    ['/dev/tty opened anew', "os.open('/dev/tty', os.O_RDONLY)"],
  ] as const) {
    it(`a program waiting in epoll on ${name} (its set read off this thread) is proven reading, and so is its next wait`, async () => {
      const script = path.join(s.h.tmp, 'epoll-tty.py');
      fs.writeFileSync(
        script,
        `import os, select, sys
fd = ${open}
ep = select.epoll()
ep.register(fd, select.EPOLLIN)
ep.poll()
line = os.read(fd, 100).decode().strip()
ep.poll()
print('got', line, os.read(fd, 100).decode().strip(), flush=True)
`,
      );
      const r = await send(`python3 ${script}`);
      assert.equal(r.waitReason, 'stdin_read', JSON.stringify(r));
      assert.equal(r.waiting, 'program-input');
      const receiver = s.h.service.sendTarget(s.h.owner, s.id).receiver;
      assert.equal(receiver.kind === 'program' && receiver.reading, true, JSON.stringify(receiver));
      const first = await send('hello');
      assert.equal(first.waiting, 'program-input', JSON.stringify(first));
      const second = await send('world');
      assert.match(second.output, /got hello world/);
      assert.equal(second.waiting, 'shell-prompt');
    });
  }

  it('a program of 15 000 threads whose main thread reads the terminal is proven reading without holding this thread', async () => {
    await proven(
      'threads',
      `import sys, threading
threading.stack_size(65536)
event = threading.Event()
for _ in range(15000):
    threading.Thread(target=event.wait, daemon=True).start()
print('got', sys.stdin.readline().strip(), flush=True)
`,
    );
  });
});
