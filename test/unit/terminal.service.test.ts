/** The TerminalService contract on the real pty-bash backend, plus settings/package.json agreement. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_TERMINAL_CONFIG, TerminalConfigError, resolveTerminalConfig } from '../../src/terminal/config';
import { TerminalError } from '../../src/terminal/errors';
import { loadNodePty } from '../../src/terminal/nodePty';
import { TerminalService } from '../../src/terminal/service';
import { BackendSession, TerminalBackend } from '../../src/terminal/types';
import { Harness, MemoryLog, harness, nodePty, sleep } from './support/terminal';

const code = (c: string) => (e: unknown) => e instanceof TerminalError && e.code === c;

describe('TerminalService', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('mints ids pty-1, pty-2 … and lists an owner’s sessions in publish order', async () => {
    const a = await h.service.open(h.owner, { name: 'first' });
    const b = await h.service.open(h.owner);
    assert.deepEqual([a.sessionId, b.sessionId], ['pty-1', 'pty-2']);
    assert.deepEqual(h.service.list(h.owner).map((s) => [s.sessionId, s.name]), [['pty-1', 'first'], ['pty-2', 'pty-2']]);
  });

  it('tells apart no such session and a session of another owner', async () => {
    const other = h.service.createOwner('other');
    const mine = await h.service.open(h.owner);
    assert.throws(() => h.service.read(other, mine.sessionId), code('NOT_SESSION_OWNER'));
    assert.throws(() => h.service.read(h.owner, 'pty-99'), code('NO_SUCH_SESSION'));
    assert.deepEqual(h.service.list(other), []);
  });

  it('allows one send in flight; read and signal do not queue behind it', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const first = h.service.send(h.owner, sessionId, { input: 'sleep 2; echo slept' });
    await sleep(200);
    await assert.rejects(h.service.send(h.owner, sessionId, { input: 'echo 2' }), code('SESSION_BUSY'));
    const t = Date.now();
    h.service.read(h.owner, sessionId);
    assert.ok(Date.now() - t < 500);
    assert.equal(h.service.list(h.owner)[0].busy, true);
    assert.equal((await first).output, 'slept');
  });

  it('rejects signals outside the allow-list, naming the valid ones', async () => {
    const { sessionId } = await h.service.open(h.owner);
    assert.throws(() => h.service.signal(h.owner, sessionId, 'SIGUSR1'), (e: Error) => code('INVALID_ARGUMENT')(e) && /SIGINT/.test(e.message));
  });

  it('close removes the session after the shell is gone; a second close returns false', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const pid = Number((await h.service.send(h.owner, sessionId, { input: 'echo $$' })).output);
    const [first, second] = await Promise.all([h.service.close(h.owner, sessionId), h.service.close(h.owner, sessionId)]);
    assert.deepEqual([first, second], [true, false]);
    assert.equal(fs.existsSync(`/proc/${pid}`), false);
    assert.equal(h.service.list(h.owner).length, 0);
  });

  it('disposing the owner closes its sessions; another owner keeps its own', async () => {
    const other = h.service.createOwner('other');
    await h.service.open(h.owner);
    const kept = await h.service.open(other);
    h.owner.dispose();
    while (h.service.hasOwnerActivity(h.owner)) await sleep(50);
    assert.deepEqual(h.service.list(other).map((s) => s.sessionId), [kept.sessionId]);
    await h.service.close(other, kept.sessionId);
  });

  it('validates backends at registration, and the disposer removes exactly that registration', () => {
    const service = new TerminalService(new MemoryLog());
    const fake = (type: string): TerminalBackend => ({ type, spawn: async () => ({}) as BackendSession });
    assert.throws(() => service.registerBackend(fake('')), code('BACKEND_REGISTRATION'));
    const reg = service.registerBackend(fake('x'));
    assert.throws(() => service.registerBackend(fake('x')), code('BACKEND_REGISTRATION'));
    reg.dispose();
    assert.deepEqual(service.backendTypes(), []);
  });

  it('background send: returns at once; cursor reads give the output exactly once, then the end', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const { jobId } = h.service.startBackground(h.owner, sessionId, { input: 'for i in 1 2 3 4 5; do echo line$i; sleep 0.2; done' });
    await assert.rejects(h.service.send(h.owner, sessionId, { input: 'echo no' }), code('SESSION_BUSY'));
    let text = '';
    let reads = 0;
    for (;;) {
      const out = h.service.output(h.owner, sessionId, jobId);
      text += out.text;
      reads++;
      if (out.done) {
        assert.equal(out.result?.waitReason, 'stdin_read');
        assert.equal(out.result?.exitCode, 0);
        break;
      }
      await sleep(150);
    }
    assert.ok(reads > 2, 'the job ended before it could be read in pieces');
    const lines = text.replace(/\r/g, '').split('\n').filter((l) => /^line\d$/.test(l));
    assert.deepEqual(lines, ['line1', 'line2', 'line3', 'line4', 'line5']);
    const scrollback = h.service.read(h.owner, sessionId).text;
    assert.ok(scrollback.replace(/\r/g, '').includes(lines.join('\n')));
    assert.equal(h.service.output(h.owner, sessionId, jobId).text, '');
    assert.throws(() => h.service.output(h.owner, sessionId, 'job-999'), /no job "job-999".*job-/);
  });

  it('take-over refuses agent sends and signals, lets the person type, and hand-back restores the agent', async () => {
    const events: string[] = [];
    h.service.onDidChangeSessions((e) => events.push(`${e.kind} ${e.sessionId}`));
    const { sessionId } = await h.service.open(h.owner);
    assert.throws(() => h.service.writeUserInput(h.owner, sessionId, 'x'), /take it over/);
    assert.equal(h.service.takeOver(h.owner, sessionId), true);
    assert.equal(h.service.list(h.owner)[0].takenOver, true);
    await assert.rejects(h.service.send(h.owner, sessionId, { input: 'echo agent' }), (e: Error) => code('TAKEN_OVER')(e) && /taken over/.test(e.message));
    assert.throws(() => h.service.signal(h.owner, sessionId, 'SIGINT'), code('TAKEN_OVER'));
    h.service.writeUserInput(h.owner, sessionId, 'echo typed-by-person\r');
    for (let i = 0; i < 50 && !h.service.read(h.owner, sessionId).text.includes('\ntyped-by-person'); i++) await sleep(50);
    assert.match(h.service.read(h.owner, sessionId).text, /\ntyped-by-person/);
    assert.equal(h.service.handBack(h.owner, sessionId), true);
    assert.equal((await h.service.send(h.owner, sessionId, { input: 'echo agent-again' })).output, 'agent-again');
    await h.service.close(h.owner, sessionId);
    assert.deepEqual(events.filter((e) => !e.startsWith('changed')), [`opened ${sessionId}`, `closed ${sessionId}`]);
    assert.ok(events.filter((e) => e.startsWith('changed')).length >= 4);
  });

  it('silence before a send does not count as its quiet (found by npm run stress)', async () => {
    const quick = harness({ quietThresholdMs: 800 });
    try {
      const { sessionId } = await quick.service.open(quick.owner);
      await sleep(1200);
      const r = await quick.service.send(quick.owner, sessionId, { input: 'sleep 0.4; echo late' });
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.output, 'late');
    } finally {
      await quick.dispose();
    }
  });

  it('an unknown cwd is refused with what is valid', async () => {
    await assert.rejects(h.service.open(h.owner, { cwd: '/no/such/dir' }), (e: Error) => code('INVALID_ARGUMENT')(e) && /existing directory/.test(e.message));
  });
});

describe('terminal configuration', () => {
  it('reports every broken rule at once', () => {
    assert.throws(
      () => resolveTerminalConfig({ pollIntervalMs: 100, promptGraceMs: 50, maxReadBytes: 10, retainedBytes: 5 }),
      (e: Error) => e instanceof TerminalConfigError && e.problems.length === 2 && /promptGraceMs/.test(e.message) && /maxReadBytes/.test(e.message),
    );
  });

  it('package.json declares every setting with the code’s default', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'));
    const props = pkg.contributes.configuration.properties;
    for (const [key, value] of Object.entries(DEFAULT_TERMINAL_CONFIG)) {
      assert.deepEqual(props[`dsh.terminal.${key}`]?.default, value, `dsh.terminal.${key}`);
    }
    assert.equal(props['dsh.terminal.shell'].scope, 'machine-overridable');
    assert.equal(props['dsh.terminal.env'].scope, 'machine-overridable');
  });
});

describe('node-pty loading', () => {
  it('falls back to the next candidate and says why', () => {
    const r = loadNodePty([
      { label: 'packaged', module: '/nonexistent/node-pty' },
      { label: 'fallback', module: 'node-pty' },
    ]);
    assert.equal(r.label, 'fallback');
    assert.equal(r.pty, nodePty);
    assert.match(r.failures[0], /packaged .*Cannot find module/);
  });

  it('fails with every reason when nothing loads', () => {
    assert.throws(() => loadNodePty([{ label: 'a', module: '/none/a' }]), /could not be loaded.*a \(\/none\/a\)/);
  });
});
