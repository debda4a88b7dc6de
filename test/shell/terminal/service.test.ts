/** The TerminalService contract on the real pty-bash backend, plus settings/package.json agreement. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_TERMINAL_CONFIG, TERMINAL_CONFIG_MAXIMA, TerminalConfigError, resolveTerminalConfig } from '../../../src/terminal/config';
import { TerminalBackendCleanupError, TerminalError } from '../../../src/terminal/errors';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { loadNodePty } from '../../../src/terminal/session/nodePty';
import { TerminalService } from '../../../src/terminal/service';
import { BackendSession, TerminalBackend, receiverIdentity } from '../../../src/terminal/types';
import { Harness, MemoryLog, firstSession, harness, nodePty, sleep } from '../../helpers/terminalHarness';
import { element } from '../../helpers/element';
import { packageJson } from '../../helpers/packageJson';
import { until } from '../../helpers/wait';

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
    assert.deepEqual(
      h.service.list(h.owner).map((s) => [s.sessionId, s.name]),
      [
        ['pty-1', 'first'],
        ['pty-2', 'pty-2'],
      ],
    );
  });

  it('tells apart no such session and a session of another owner', async () => {
    const other = h.service.createOwner('other');
    const mine = await h.service.open(h.owner);
    assert.throws(() => h.service.read(other, mine.sessionId), code('NOT_SESSION_OWNER'));
    assert.throws(() => h.service.read(h.owner, 'pty-99'), code('NO_SUCH_SESSION'));
    assert.deepEqual(h.service.list(other), []);
  });

  it("info gives one session as the list shows it; another owner's session and an unknown id are refused as read refuses them", async () => {
    const other = h.service.createOwner('other');
    await h.service.open(h.owner, { name: 'first' });
    const second = await h.service.open(h.owner, { name: 'second' });
    const theirs = await h.service.open(other);
    h.service.startBackground(h.owner, second.sessionId, { input: 'sleep 5' });
    await until('sleep 5 in the foreground', () => h.service.info(h.owner, second.sessionId).foregroundCommand?.startsWith('sleep 5'));
    const info = h.service.info(h.owner, second.sessionId);
    assert.deepEqual(info, element(h.service.list(h.owner), 1, 'second session'));
    assert.deepEqual([info.name, info.busy], ['second', true]);
    const refusal = (call: () => unknown) => {
      try {
        call();
      } catch (e) {
        return e instanceof TerminalError ? [e.code, e.message] : e;
      }
      return 'no error';
    };
    for (const [owner, sessionId] of [
      [h.owner, theirs.sessionId],
      [h.owner, 'pty-99'],
      [other, second.sessionId],
      [{ label: 'fake', disposed: false, dispose() {} }, second.sessionId],
    ] as const) {
      const read = refusal(() => h.service.read(owner, sessionId));
      assert.ok(Array.isArray(read), `read(${sessionId}) refused with a TerminalError`);
      assert.deepEqual(
        refusal(() => h.service.info(owner, sessionId)),
        read,
      );
    }
    other.dispose();
    assert.deepEqual(
      refusal(() => h.service.info(other, theirs.sessionId)),
      refusal(() => h.service.read(other, theirs.sessionId)),
    );
    assert.equal((refusal(() => h.service.info(other, theirs.sessionId)) as string[])[0], 'OWNER_DISPOSED');
  });

  it("info of one session among many looks at that session alone: the others' state is not read", async () => {
    const service = new TerminalService(h.log);
    const real = new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log);
    // Real shells; the test only counts each one's busy checks, the /proc read a session's info costs.
    const busyChecks: number[] = [];
    service.registerBackend({
      type: 'pty-bash',
      spawn: async (spec, signal) => {
        const session = await real.spawn(spec, signal);
        const index = busyChecks.push(0) - 1;
        return new Proxy(session, {
          get(target, key) {
            if (key === 'isBusy') busyChecks[index] = (busyChecks[index] ?? 0) + 1;
            const value: unknown = Reflect.get(target, key, target);
            return typeof value === 'function' ? (value.bind(target) as unknown) : value;
          },
        });
      },
    });
    const owner = service.createOwner('many');
    const other = service.createOwner('other');
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await service.open(owner)).sessionId);
      await service.open(other);
      busyChecks.fill(0);
      assert.equal(service.info(owner, element(ids, 1, 'second session')).sessionId, ids[1]);
      assert.deepEqual(busyChecks, [0, 1, 0, 0]);
      busyChecks.fill(0);
      service.list(owner);
      assert.deepEqual(busyChecks, [1, 1, 1, 0], 'the list reads every session of the owner (the count is right)');
    } finally {
      await service.closeAll('test done');
    }
  });

  it('allows one send in flight; read and signal do not queue behind it', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const first = h.service.send(h.owner, sessionId, { input: 'sleep 2; echo slept' });
    await until('sleep 2 in the foreground', () => firstSession(h).foregroundCommand?.startsWith('sleep 2'));
    await assert.rejects(h.service.send(h.owner, sessionId, { input: 'echo 2' }), code('SESSION_BUSY'));
    const t = Date.now();
    h.service.read(h.owner, sessionId);
    assert.ok(Date.now() - t < 500);
    assert.equal(firstSession(h).busy, true);
    assert.equal((await first).output, 'slept');
  });

  it('rejects a timeout a timer cannot hold, or not a whole number, saying the valid range', async () => {
    const { sessionId } = await h.service.open(h.owner);
    for (const timeoutMs of [2 ** 31, 0, 1.5, -1]) {
      await assert.rejects(
        h.service.send(h.owner, sessionId, { input: 'echo x', timeoutMs }),
        (e: Error) => code('INVALID_ARGUMENT')(e) && /in 1\.\.2147483647/.test(e.message),
      );
    }
    assert.equal((await h.service.send(h.owner, sessionId, { input: 'echo still-fine' })).output, 'still-fine');
  });

  it('rejects signals outside the allow-list, naming the valid ones', async () => {
    const { sessionId } = await h.service.open(h.owner);
    assert.throws(
      () => h.service.signal(h.owner, sessionId, 'SIGUSR1'),
      (e: Error) => code('INVALID_ARGUMENT')(e) && /SIGINT/.test(e.message),
    );
  });

  it('a signal confirmed for a program that has ended since is not delivered to the shell', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const shell = Number((await h.service.send(h.owner, sessionId, { input: 'echo $$' })).output);
    const running = h.service.send(h.owner, sessionId, { input: 'sleep 1' });
    await until('sleep in the foreground', () => h.service.sendTarget(h.owner, sessionId).receiver.kind === 'program');
    const confirmed = receiverIdentity(h.service.sendTarget(h.owner, sessionId).receiver);
    await running; // the program ends while the person reads the confirmation
    assert.throws(
      () => h.service.signal(h.owner, sessionId, 'SIGKILL', confirmed),
      (e: Error) =>
        code('RECEIVER_CHANGED')(e) &&
        /nothing was delivered: the confirmation named a program in process group \d+ \(pid \d+\), but now the shell at its prompt is in the foreground/.test(
          e.message,
        ),
    );
    await sleep(200);
    assert.ok(fs.existsSync(`/proc/${shell}`), 'SIGKILL meant for sleep killed the shell');
    assert.equal((await h.service.send(h.owner, sessionId, { input: 'echo alive' })).output, 'alive');
    const atPrompt = receiverIdentity(h.service.sendTarget(h.owner, sessionId).receiver);
    assert.equal(h.service.signal(h.owner, sessionId, 'SIGINT', atPrompt).delivered, true, 'the same receiver as confirmed: delivered');
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
    await until("the disposed owner's sessions to close", () => !h.service.hasOwnerActivity(h.owner));
    assert.deepEqual(
      h.service.list(other).map((s) => s.sessionId),
      [kept.sessionId],
    );
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
    const end = await until(
      'the background send to end',
      async () => {
        const out = await h.service.output(h.owner, sessionId, jobId);
        text += out.text;
        reads++;
        return out.done && out;
      },
      10_000,
      150,
    );
    assert.equal(end.result?.waitReason, 'stdin_read');
    assert.equal(end.result?.exitCode, 0);
    assert.ok(reads > 2, 'the job ended before it could be read in pieces');
    const lines = text
      .replace(/\r/g, '')
      .split('\n')
      .filter((l) => /^line\d$/.test(l));
    assert.deepEqual(lines, ['line1', 'line2', 'line3', 'line4', 'line5']);
    const scrollback = h.service.read(h.owner, sessionId).text;
    assert.ok(scrollback.replace(/\r/g, '').includes(lines.join('\n')));
    assert.equal((await h.service.output(h.owner, sessionId, jobId)).text, '');
    await assert.rejects(h.service.output(h.owner, sessionId, 'job-999'), /no job "job-999".*job-/);
  });

  it('a background job whose unread output outgrew its 1 MiB buffer: the cut oldest bytes never leave the rest of an escape sequence at the start', async () => {
    const { sessionId } = await h.service.open(h.owner);
    // Lines of ESC [ 38;5;196 m X (14 bytes with CR LF, 10 inside the sequence); five lengths a byte
    // apart move the cut through five neighbouring bytes, so at least one falls inside a sequence.
    for (let k = 0; k < 5; k++) {
      const { jobId } = h.service.startBackground(h.owner, sessionId, {
        input: `yes $'\\e[38;5;196mX' | head -c $((1200000 + ${k})); echo; echo job-end`,
      });
      await until(`job ${k} to end`, () => !h.service.info(h.owner, sessionId).busy, 60_000, 50);
      const out = await h.service.output(h.owner, sessionId, jobId);
      assert.equal(out.done, true);
      assert.ok(out.droppedBytes > 0, `job ${k} dropped nothing`);
      assert.ok(Buffer.byteLength(out.text) <= 1024 * 1024);
      assert.match(out.text, /job-end/);
      const head = out.text.slice(0, 200).replace(/\x1b\[[0-9;]*m/g, '');
      assert.match(head, /^[X\r\n]/, `job ${k} starts with ${JSON.stringify(out.text.slice(0, 12))}`);
    }
  });

  it('background jobs past the newest 16 finished: a forgotten job is named as finished and forgotten, with where its output is', async () => {
    const { sessionId } = await h.service.open(h.owner);
    const ids: string[] = [];
    for (let n = 1; n <= 18; n++) {
      const { jobId } = h.service.startBackground(h.owner, sessionId, { input: `echo job-output-${n}` });
      ids.push(jobId);
      if (n === 1) assert.equal((await h.service.output(h.owner, sessionId, jobId)).done, false);
      await until(
        `job ${n} to end`,
        async () => !h.service.info(h.owner, sessionId).busy && (await h.service.output(h.owner, sessionId, jobId)).done,
        10_000,
        20,
      );
    }
    const first = h.service.command(h.owner, sessionId, 1);
    assert.equal(first.command, 'echo job-output-1');
    for (const [k, id] of ids.slice(0, 2).entries()) {
      await assert.rejects(
        h.service.output(h.owner, sessionId, id),
        (e: Error) =>
          code('INVALID_ARGUMENT')(e) &&
          e.message.includes(`job "${id}" of session ${sessionId} finished and was forgotten`) &&
          /newest 16 finished jobs/.test(e.message) &&
          e.message.includes(`command: ${k + 1}`),
        id,
      );
    }
    for (const id of ids.slice(2)) assert.equal((await h.service.output(h.owner, sessionId, id)).done, true);
    await assert.rejects(
      h.service.output(h.owner, sessionId, 'job-999'),
      (e: Error) =>
        /no job "job-999"/.test(e.message) &&
        e.message.includes(`${ids[2]} (finished)`) &&
        /2 older finished jobs were forgotten/.test(e.message),
    );
  });

  it('take-over refuses agent sends and signals, lets the person type, and hand-back restores the agent', async () => {
    const events: string[] = [];
    h.service.onDidChangeSessions(h.owner, (e) => events.push(`${e.kind} ${e.sessionId}`));
    const { sessionId } = await h.service.open(h.owner);
    assert.throws(() => h.service.writeUserInput(h.owner, sessionId, 'x'), /take it over/);
    assert.equal(h.service.takeOver(h.owner, sessionId), true);
    assert.equal(firstSession(h).takenOver, true);
    await assert.rejects(
      h.service.send(h.owner, sessionId, { input: 'echo agent' }),
      (e: Error) => code('TAKEN_OVER')(e) && /taken over/.test(e.message),
    );
    assert.throws(() => h.service.signal(h.owner, sessionId, 'SIGINT'), code('TAKEN_OVER'));
    h.service.writeUserInput(h.owner, sessionId, 'echo typed-by-person\r');
    await until('the typed line in the scrollback', () => h.service.read(h.owner, sessionId).text.includes('\ntyped-by-person'));
    assert.equal(h.service.handBack(h.owner, sessionId), true);
    assert.equal((await h.service.send(h.owner, sessionId, { input: 'echo agent-again' })).output, 'agent-again');
    await h.service.close(h.owner, sessionId);
    assert.deepEqual(
      events.filter((e) => !e.startsWith('changed')),
      [`opened ${sessionId}`, `closed ${sessionId}`],
    );
    assert.ok(events.filter((e) => e.startsWith('changed')).length >= 4);
  });

  it('session events reach only the owner’s own subscriptions and carry the id, never an owner', async () => {
    const other = h.service.createOwner('other');
    const mine: object[] = [];
    const theirs: object[] = [];
    h.service.onDidChangeSessions(h.owner, (e) => mine.push(e));
    h.service.onDidChangeSessions(other, (e) => theirs.push(e));
    const a = await h.service.open(h.owner);
    const b = await h.service.open(other);
    await h.service.send(h.owner, a.sessionId, { input: 'echo a' });
    await h.service.send(other, b.sessionId, { input: 'echo b' });
    assert.equal(h.service.takeOver(h.owner, a.sessionId), true);
    await h.service.close(h.owner, a.sessionId, 'test', { userConfirmed: true });
    await h.service.close(other, b.sessionId);
    const ids = (events: object[]) => [...new Set(events.map((e) => (e as { sessionId: string }).sessionId))];
    assert.deepEqual(ids(mine), [a.sessionId]);
    assert.deepEqual(ids(theirs), [b.sessionId]);
    for (const e of [...mine, ...theirs]) {
      assert.deepEqual(Object.keys(e).sort(), ['kind', 'sessionId']);
      assert.ok(
        Object.values(e).every((v) => typeof v === 'string'),
        'an event holds only strings',
      );
    }
    assert.deepEqual(
      mine.map((e) => (e as { kind: string }).kind).filter((k) => k !== 'changed'),
      ['opened', 'closed'],
    );
  });

  it('subscribing needs an owner from createOwner; a listener alone is refused', () => {
    const listener = () => undefined;
    assert.throws(() => (h.service.onDidChangeSessions as unknown as (l: unknown) => unknown)(listener), code('INVALID_ARGUMENT'));
    assert.throws(
      () => h.service.onDidChangeSessions({ label: 'fake', disposed: false, dispose() {} }, listener),
      code('INVALID_ARGUMENT'),
    );
  });

  it('a session the person took over closes only with their confirmation; the refusal says so', async () => {
    const { sessionId } = await h.service.open(h.owner);
    h.service.takeOver(h.owner, sessionId);
    await assert.rejects(
      h.service.close(h.owner, sessionId),
      (e: Error) => code('TAKEN_OVER')(e) && /confirm/.test(e.message) && e.message.includes(sessionId),
    );
    assert.equal(h.service.list(h.owner).length, 1, 'the refused close left the session running');
    await assert.rejects(h.service.send(h.owner, sessionId, { input: 'echo x' }), code('TAKEN_OVER'));
    assert.equal(await h.service.close(h.owner, sessionId, 'the person confirmed', { userConfirmed: true }), true);
    assert.deepEqual(h.service.list(h.owner), []);
  });

  it('silence before a send does not count as its quiet (found by npm run stress)', async () => {
    const quick = harness({ quietThresholdMs: 800 });
    try {
      const { sessionId } = await quick.service.open(quick.owner);
      // Silence on purpose: longer than the quiet threshold, before the send starts.
      await sleep(1200);
      const r = await quick.service.send(quick.owner, sessionId, { input: 'sleep 0.4; echo late' });
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.output, 'late');
    } finally {
      await quick.dispose();
    }
  });

  it('sessions outlive a reload of the backend registration; new ones use the new registration', async () => {
    const service = new TerminalService(h.log);
    const backend = new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log);
    const registration = service.registerBackend(backend);
    const owner = service.createOwner('reload');
    const { sessionId } = await service.open(owner);
    registration.dispose();
    assert.equal((await service.send(owner, sessionId, { input: 'echo still-here' })).output, 'still-here');
    await assert.rejects(service.open(owner), code('NO_SUCH_BACKEND'));
    service.registerBackend(new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log));
    const second = await service.open(owner);
    assert.equal((await service.send(owner, second.sessionId, { input: 'echo new' })).output, 'new');
    owner.dispose();
    await until("the disposed owner's sessions to close", () => !service.hasOwnerActivity(owner));
  });

  it('create-then-publish: an owner disposed during spawn never gets the session, and its shell is ended', async () => {
    const service = new TerminalService(h.log);
    const real = new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log);
    const spawned: BackendSession[] = [];
    let releaseSpawn!: () => void;
    const gate = new Promise<void>((r) => (releaseSpawn = r));
    // The backend is real; the test only holds its result back until the owner is gone.
    service.registerBackend({
      type: 'pty-bash',
      spawn: async (spec, signal) => {
        const session = await real.spawn(spec, signal);
        spawned.push(session);
        await gate;
        return session;
      },
    });
    const owner = service.createOwner('short-lived');
    const opening = service.open(owner);
    await until('the backend to spawn the shell', () => spawned.length > 0);
    assert.equal(service.hasOwnerActivity(owner), true);
    owner.dispose();
    releaseSpawn();
    await assert.rejects(opening, code('OWNER_DISPOSED'));
    assert.deepEqual(element(spawned, 0, 'spawned shell').status().kind, 'exited');
    assert.equal(service.hasOwnerActivity(owner), false);
  });

  it('a failed cleanup after an abandoned spawn is a TerminalBackendCleanupError keeping the reason', async () => {
    const service = new TerminalService(h.log);
    const real = new PtyBashBackend(nodePty, () => resolveTerminalConfig(), h.log);
    let session!: BackendSession;
    service.registerBackend({
      type: 'pty-bash',
      spawn: async (spec, signal) => {
        session = await real.spawn(spec, signal);
        owner.dispose();
        // This backend's close fails (after really ending the shell): the service must say both.
        return Object.assign(Object.create(session) as BackendSession, {
          close: async () => {
            await session.close('test');
            throw new Error('disk on fire');
          },
        });
      },
    });
    const owner = service.createOwner('doomed');
    await assert.rejects(
      service.open(owner),
      (e: Error) =>
        e instanceof TerminalBackendCleanupError && (e.reason as TerminalError).code === 'OWNER_DISPOSED' && /disk on fire/.test(e.message),
    );
    assert.equal(session.status().kind, 'exited');
  });

  it('a spawn cancelled before the first prompt rejects and leaves no shell behind', async () => {
    const abort = new AbortController();
    const home = fs.mkdtempSync(path.join(h.tmp, 'slow-'));
    fs.writeFileSync(path.join(home, '.bashrc'), 'sleep 5\n');
    const opening = h.service.open(h.owner, { env: { HOME: home }, signal: abort.signal });
    await until('the shell to run its slow rc', () => processesWithHome(home).length > 0);
    abort.abort('the tool call was cancelled');
    await assert.rejects(opening, /cancelled/);
    assert.deepEqual(h.service.list(h.owner), []);
    assert.deepEqual(processesWithHome(home), []);
  });

  it('an unknown cwd is refused with what is valid', async () => {
    await assert.rejects(
      h.service.open(h.owner, { cwd: '/no/such/dir' }),
      (e: Error) => code('INVALID_ARGUMENT')(e) && /existing directory/.test(e.message),
    );
  });
});

describe('terminal configuration', () => {
  it('reports every broken rule at once', () => {
    assert.throws(
      () => resolveTerminalConfig({ pollIntervalMs: 100, promptGraceMs: 50, maxReadBytes: 10, retainedBytes: 5 }),
      (e: Error) =>
        e instanceof TerminalConfigError && e.problems.length === 2 && /promptGraceMs/.test(e.message) && /maxReadBytes/.test(e.message),
    );
  });

  it('refuses scrollback and read bounds over their maxima, naming the setting, the value and the limit', () => {
    assert.deepEqual(TERMINAL_CONFIG_MAXIMA, {
      retainedLines: 1_000_000,
      retainedBytes: 256 * 1024 * 1024,
      maxReadBytes: 16 * 1024 * 1024,
      historySize: 10_000,
      maxSessionsPerOwner: 256,
    });
    const at = resolveTerminalConfig({ ...TERMINAL_CONFIG_MAXIMA });
    assert.equal(at.retainedBytes, 256 * 1024 * 1024);
    assert.throws(
      () => resolveTerminalConfig({ retainedLines: 1_000_001, retainedBytes: 2 ** 40, maxReadBytes: 16 * 1024 * 1024 + 1 }),
      (e: Error) =>
        e instanceof TerminalConfigError &&
        e.problems.length === 3 &&
        e.message.includes('dsh.terminal.retainedLines must be an integer in 1..1000000, in lines (got 1000001)') &&
        e.message.includes('dsh.terminal.retainedBytes must be an integer in 1..268435456, in bytes (got 1099511627776)') &&
        e.message.includes('dsh.terminal.maxReadBytes must be an integer in 1..16777216, in bytes (got 16777217)'),
    );
  });

  it('package.json declares the maxima the code enforces', () => {
    const props = packageJson().contributes.configuration.properties;
    for (const [key, max] of Object.entries(TERMINAL_CONFIG_MAXIMA))
      assert.equal(props[`dsh.terminal.${key}`]?.maximum, max, `dsh.terminal.${key}`);
  });

  it('package.json declares every setting with the code’s default', () => {
    const props = packageJson().contributes.configuration.properties;
    for (const [key, value] of Object.entries(DEFAULT_TERMINAL_CONFIG)) {
      assert.deepEqual(props[`dsh.terminal.${key}`]?.default, value, `dsh.terminal.${key}`);
    }
    assert.equal(props['dsh.terminal.shell']?.scope, 'machine-overridable');
    assert.equal(props['dsh.terminal.env']?.scope, 'machine-overridable');
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
    assert.match(element(r.failures, 0, 'failure'), /packaged .*Cannot find module/);
  });

  it('names the native file it loaded: this machine’s build, as in the linux-x64 VSIX', () => {
    const r = loadNodePty([{ label: 'packaged', module: 'node-pty' }]);
    assert.equal(r.binary, 'build/Release/pty.node');
  });

  it('fails with every reason when nothing loads', () => {
    assert.throws(() => loadNodePty([{ label: 'a', module: '/none/a' }]), /could not be loaded.*a \(\/none\/a\)/);
  });
});

/** Pids of processes whose environment has HOME=`home` (the shell of a test and its children). */
function processesWithHome(home: string): string[] {
  return fs.readdirSync('/proc').filter((p) => {
    try {
      return /^\d+$/.test(p) && fs.readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`HOME=${home}`);
    } catch {
      return false;
    }
  });
}
