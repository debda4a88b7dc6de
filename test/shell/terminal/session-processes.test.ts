/**
 * What a session started: the sockets its processes listen on (in send results, in the service's
 * `processes`, for a wait's `untilListening`), and every process it started, also after it left
 * the session's process groups (setsid, nohup and disown, a double-forking daemon), ended at close
 * and at the owner's cleanup, or kept on purpose. Real node-pty, real bash, real processes.
 */
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as proc from '../../../src/proc/procProbe';
import { readStat } from '../../../src/proc/stat';
import { Harness, harness } from '../../helpers/terminalHarness';
import { alive, daemonCommand, processesRunning } from '../../helpers/processes';
import { until } from '../../helpers/wait';
import type { ProcessesReport } from '../../../src/terminal/types';
import { SessionProcessWatch } from '../../../src/terminal/session/sessionProcesses';

/** A TCP port nothing listens on now (the kernel's pick, released at once). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function available(report: ProcessesReport): Extract<ProcessesReport, { available: true }> {
  assert.equal(report.available, true, JSON.stringify(report));
  return report;
}

(proc.probeAvailable() ? describe : describe.skip)(
  'what a session started: ports and background processes (pty-bash, Linux /proc)',
  function () {
    this.timeout(120_000);
    let h: Harness;
    const outside: ChildProcess[] = [];
    /** Commands this test's sessions ran that must be gone at its end. */
    const cleanup: string[] = [];
    afterEach(async () => {
      await h?.dispose();
      for (const child of outside.splice(0)) child.kill('SIGKILL');
      for (const command of cleanup.splice(0)) for (const pid of processesRunning(command)) process.kill(pid, 'SIGKILL');
    });

    it('a server started with & appears with its port in send results and processes; untilListening returns when it listens; a closed port disappears', async () => {
      h = harness({ quietThresholdMs: 60_000 });
      const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
      const started = await h.service.send(h.owner, id, { input: 'python3 -m http.server 0 --bind 127.0.0.1 &' });
      assert.equal(started.waiting, 'shell-prompt');
      // The server runs in the background: the shell is at its prompt, and the wait is for its port.
      const waited = await h.service.wait(h.owner, id, { untilListening: true, timeoutMs: 20_000 });
      assert.equal(waited.waitReason, 'port_listening', JSON.stringify(waited));
      const socket = waited.listened!;
      assert.equal(socket.protocol, 'tcp');
      assert.equal(socket.address, '127.0.0.1');
      assert.match(socket.command, /python3 -m http\.server 0/);
      await new Promise<void>((resolve, reject) =>
        net
          .connect(socket.port, '127.0.0.1')
          .once('connect', function (this: net.Socket) {
            this.destroy();
            resolve();
          })
          .once('error', reject),
      );

      const next = await h.service.send(h.owner, id, { input: 'true' });
      assert.deepEqual(next.listening, [socket], 'the send result names the listening socket');
      const report = available(await h.service.processes(h.owner, id));
      assert.deepEqual(report.listening, [socket]);
      assert.ok(
        report.processes.some((p) => p.pid === socket.pid && !p.detached),
        JSON.stringify(report.processes),
      );

      await h.service.send(h.owner, id, { input: 'kill %1; wait' });
      const after = await h.service.send(h.owner, id, { input: 'true' });
      assert.equal(after.listening, undefined, 'the closed port is gone from the send result');
      assert.deepEqual(available(await h.service.processes(h.owner, id)).listening, []);
    });

    it('untilListening with a port returns when that port listens, with the process, from a foreground command; a wait for a port that never listens times out', async () => {
      h = harness({ quietThresholdMs: 300 });
      const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
      const port = await freePort();
      const sent = await h.service.send(h.owner, id, {
        input: `sleep 1.5; python3 -m http.server ${port} --bind 127.0.0.1`,
        timeoutMs: 500,
      });
      assert.notEqual(sent.waiting, 'shell-prompt');
      // Quiet for longer than the quiet threshold before it listens: the wait does not end as inferred_idle.
      const waited = await h.service.wait(h.owner, id, { untilListening: port, timeoutMs: 20_000 });
      assert.equal(waited.waitReason, 'port_listening', JSON.stringify(waited));
      assert.equal(waited.listened?.port, port);
      assert.match(waited.listened.command, /http\.server/);
      h.service.signal(h.owner, id, 'SIGINT');
      await h.service.settled(h.owner, id);
      const idle = await h.service.wait(h.owner, id, { untilListening: port, timeoutMs: 800 });
      assert.equal(idle.waitReason, 'timeout');
      await assert.rejects(h.service.wait(h.owner, id, { untilListening: 70000 as number }), /untilListening must be a port number/);
    });

    it('close ends what left the session (setsid, nohup and disown, a double-forking daemon) and nothing started outside it, and names what it ended', async () => {
      h = harness();
      const commands = ['sleep 1000.4301', 'sleep 1001.4301', 'sleep 1002.4301'];
      cleanup.push(...commands);
      const stranger = spawn('sleep', ['1000.4301'], { stdio: 'ignore' });
      outside.push(stranger);
      const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
      const other = await h.service.open(h.owner, { cwd: h.tmp });
      await h.service.send(h.owner, other.sessionId, { input: 'setsid sleep 1002.4301 &' });
      await h.service.send(h.owner, id, { input: 'setsid sleep 1000.4301 &' });
      await h.service.send(h.owner, id, { input: 'nohup sleep 1001.4301 >/dev/null 2>&1 & disown' });
      await h.service.send(h.owner, id, { input: daemonCommand('1003.4301') });
      cleanup.push('sleep 1003.4301');
      await until('the daemon', () => processesRunning('sleep 1003.4301').length === 1 && processesRunning('sleep 1000.4301').length === 2);
      const report = available(await h.service.processes(h.owner, id));
      assert.ok(
        report.processes.some((p) => p.command === 'sleep 1003.4301' && p.detached),
        JSON.stringify(report.processes),
      );
      assert.ok(!report.processes.some((p) => p.pid === stranger.pid), 'a process started outside is not listed');

      const outcome = await h.service.end(h.owner, id);
      assert.equal(outcome.closed, true);
      assert.deepEqual(outcome.kept, []);
      for (const command of ['sleep 1000.4301', 'sleep 1001.4301', 'sleep 1003.4301']) {
        assert.ok(
          outcome.ended!.some((p) => p.command === command),
          `${command} named as ended: ${JSON.stringify(outcome.ended)}`,
        );
      }
      assert.deepEqual(processesRunning('sleep 1000.4301'), [stranger.pid], 'the process started outside survives');
      assert.deepEqual(processesRunning('sleep 1001.4301'), []);
      assert.deepEqual(processesRunning('sleep 1003.4301'), []);
      assert.equal(processesRunning('sleep 1002.4301').length, 1, "another session's process survives");
    });

    it("the owner's cleanup ends what left its sessions, and nothing started outside", async () => {
      h = harness();
      cleanup.push('sleep 1010.4301', 'sleep 1011.4301');
      const stranger = spawn('sleep', ['1010.4301'], { stdio: 'ignore' });
      outside.push(stranger);
      const owner = h.service.createOwner('leaving');
      const { sessionId: id } = await h.service.open(owner, { cwd: h.tmp });
      await h.service.send(owner, id, { input: 'setsid sleep 1010.4301 & nohup sleep 1011.4301 >/dev/null 2>&1 & disown -a' });
      await until('both', () => processesRunning('sleep 1010.4301').length === 2 && processesRunning('sleep 1011.4301').length === 1);
      owner.dispose();
      await until('the owner’s sessions closed', () => !h.service.hasOwnerActivity(owner), 10_000);
      assert.deepEqual(processesRunning('sleep 1010.4301'), [stranger.pid]);
      assert.deepEqual(processesRunning('sleep 1011.4301'), []);
    });

    it('closing every session (deactivation, the window closing) ends what left them, and nothing started outside', async () => {
      h = harness();
      cleanup.push('sleep 1030.4301');
      const stranger = spawn('sleep', ['1030.4301'], { stdio: 'ignore' });
      outside.push(stranger);
      const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
      await h.service.send(h.owner, id, { input: 'setsid sleep 1030.4301 & (nohup sleep 1030.4301 >/dev/null 2>&1 &)' });
      await until('both', () => processesRunning('sleep 1030.4301').length === 3);
      await h.service.closeAll('extension deactivated');
      assert.deepEqual(processesRunning('sleep 1030.4301'), [stranger.pid]);
    });

    it('keep: true leaves a background server running, says so, and the person can list and stop it', async () => {
      h = harness();
      const { sessionId: id } = await h.service.open(h.owner, { cwd: h.tmp });
      await h.service.send(h.owner, id, { input: 'python3 -m http.server 0 --bind 127.0.0.1 >/dev/null 2>&1 &' });
      const { listened } = await h.service.wait(h.owner, id, { untilListening: true, timeoutMs: 20_000 });
      cleanup.push(listened!.command);
      const outcome = await h.service.end(h.owner, id, 'test', { keep: true });
      assert.deepEqual(
        outcome.kept!.map((p) => p.pid),
        [listened!.pid],
      );
      assert.ok(alive(listened!.pid));
      const kept = await h.service.kept.list();
      assert.equal(kept.length, 1);
      assert.equal(kept[0]!.sessionId, id);
      assert.equal(kept[0]!.listening?.[0]?.port, listened!.port);
      assert.equal(
        await h.service.kept.stop(listened!.pid, kept[0]!.startTime + 1),
        'gone',
        'another start time is another process: not signalled',
      );
      assert.ok(alive(listened!.pid));
      assert.equal(await h.service.kept.stop(listened!.pid, kept[0]!.startTime), 'stopped');
      assert.ok(!alive(listened!.pid));
      assert.deepEqual(await h.service.kept.list(), []);
    });

    it('the keep-by-default policy (detachBackgroundProcesses) keeps background processes at the owner’s cleanup', async () => {
      h = harness();
      h.service.setKeepByDefault(() => true);
      cleanup.push('sleep 1020.4301');
      const owner = h.service.createOwner('detaching');
      const { sessionId: id } = await h.service.open(owner, { cwd: h.tmp });
      await h.service.send(owner, id, { input: 'sleep 1020.4301 >/dev/null 2>&1 &' });
      owner.dispose();
      await until('the owner’s sessions closed', () => !h.service.hasOwnerActivity(owner), 10_000);
      const [pid] = processesRunning('sleep 1020.4301');
      assert.ok(pid !== undefined, 'the background job still runs');
      assert.deepEqual(
        (await h.service.kept.list()).map((p) => p.pid),
        [pid],
      );
      assert.equal(await h.service.kept.stop(pid, readStat(pid)!.startTime), 'stopped');
    });
  },
);

(proc.probeAvailable() ? describe : describe.skip)('the cost of listing a session of many processes (Linux /proc)', function () {
  this.timeout(120_000);

  it('redacts each distinct command line once, not once per process at every list', async () => {
    const mark = `DSH_SESSION=redact-${process.pid}-${Date.now()}`;
    const [name, value] = mark.split('=') as [string, string];
    const leader = spawn('bash', ['-c', 'for i in $(seq 100); do sleep 317 & done; echo started; wait'], {
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, [name]: value },
      detached: true,
    });
    try {
      await new Promise<void>((resolve) => leader.stdout.on('data', (d: Buffer) => d.toString().includes('started') && resolve()));
      // A child forked by the loop may not have run `sleep` yet: its command line is still bash's.
      await until('the hundred sleeps to run', () => processesRunning('sleep 317').length >= 100);
      const redacted: string[] = [];
      const redactor = { enabled: true, redactLine: (text: string) => (redacted.push(text), text.replace('317', '***')) };
      const watch = new SessionProcessWatch(leader.pid!, readStat(leader.pid!)!.startTime, mark, () => leader.pid!, redactor);
      for (let i = 0; i < 3; i++) {
        const report = available(await watch.report(true));
        assert.equal(report.processes.filter((p) => p.command === 'sleep ***').length, 100, 'every process, its command line redacted');
      }
      assert.deepEqual(redacted, ['sleep 317'], 'one redaction for the hundred processes and three lists');
      redactor.enabled = false;
      assert.ok(
        available(await watch.report(false)).processes.every((p) => p.command === 'sleep 317'),
        'redaction turned off: none',
      );
    } finally {
      process.kill(-leader.pid!, 'SIGKILL');
    }
  });
});
