/**
 * Limits per caller on the real pty-bash backend: open sessions per owner (the setting
 * dsh.terminal.maxSessionsPerOwner), searches in flight per owner and the one bounded pool of
 * search workers every owner shares, and every input sized before anything is built from it.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { TerminalError } from '../../../src/terminal/errors';
import { MAX_INPUT_BYTES, checkKeys, checkSendInput } from '../../../src/terminal/input/input';
import { MAX_SEARCHES_PER_OWNER, POOL_JOBS } from '../../../src/terminal/ownerLimits';
import { checkRunCommand } from '../../../src/vscode/tools/terminal/runCommand';
import { Harness, MemoryLog, harness, nodePty } from '../../helpers/terminalHarness';
import { resolveTerminalConfig } from '../../../src/terminal/config';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { TerminalService } from '../../../src/terminal/service';
import { redactionWorkerEntry, screenTextWorkerEntry } from '../../helpers/workerEntry';

const code = (c: string) => (e: unknown) => e instanceof TerminalError && e.code === c;

/** Threads of this process now (Linux: /proc/self/status). */
function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1]);
}

describe('limits per caller', function () {
  this.timeout(120_000);
  let h: Harness;
  afterEach(() => h?.dispose());

  it('refuses a session past dsh.terminal.maxSessionsPerOwner at once, naming the setting and how many are open; other owners still open', async () => {
    h = harness({ maxSessionsPerOwner: 2 });
    // Three at once: the cap counts sessions still starting too.
    const opens = await Promise.allSettled([h.service.open(h.owner), h.service.open(h.owner), h.service.open(h.owner)]);
    assert.equal(opens.filter((o) => o.status === 'fulfilled').length, 2);
    const refused = opens.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    const reason: unknown = refused?.reason;
    assert.ok(reason instanceof TerminalError && reason.code === 'LIMIT_REACHED', String(reason));
    assert.match(reason.message, /dsh\.terminal\.maxSessionsPerOwner is 2/);
    assert.match(reason.message, /2 sessions open or opening/);
    const started = performance.now();
    await assert.rejects(
      h.service.open(h.owner),
      (e: Error) => code('LIMIT_REACHED')(e) && /close one \(dsh_terminal_close\)/.test(e.message),
    );
    assert.ok(performance.now() - started < 50, `refused in ${(performance.now() - started).toFixed(1)} ms`);
    const other = h.service.createOwner('other');
    await h.service.open(other);
    // A closed session frees its place.
    const [first] = h.service.list(h.owner);
    await h.service.close(h.owner, first!.sessionId);
    await h.service.open(h.owner);
  });

  it('sessions opened at once fork one per turn of the event loop, never back to back in one turn', async () => {
    const config = resolveTerminalConfig({ maxSessionsPerOwner: 16 });
    const log = new MemoryLog();
    const service = new TerminalService(
      log,
      () => config,
      () => 'pty-bash',
    );
    // The turn of the event loop each fork happens in: a counter a setImmediate chain advances.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const forks: number[] = [];
    const pty: typeof nodePty = {
      ...nodePty,
      spawn: (...args: Parameters<typeof nodePty.spawn>) => (forks.push(turn), nodePty.spawn(...args)),
    };
    service.registerBackend(
      new PtyBashBackend(pty, () => config, log, {
        renderWorkerEntry: screenTextWorkerEntry(),
        redactionWorkerEntry: redactionWorkerEntry(),
      }),
    );
    const owner = service.createOwner('burst');
    try {
      await Promise.all(Array.from({ length: 6 }, () => service.open(owner)));
      assert.equal(forks.length, 6);
      assert.equal(new Set(forks).size, 6, `forks by turn: ${forks.join(' ')}`);
    } finally {
      ticking = false;
      await service.closeAll('test done');
      service.dispose();
    }
  });

  it('refuses searches past the per-owner cap at once; one owner holding its searches does not hold up another, and search threads stay within the shared pool', async () => {
    h = harness({ maxSessionsPerOwner: 64 });
    const id = (await h.service.open(h.owner)).sessionId;
    // A line on which (a+)+$ backtracks for minutes.
    await h.service.send(h.owner, id, { input: `printf 'a%.0s' {1..40}; echo b` });
    const slow = { pattern: '(a+)+$', regex: true, timeoutMs: 3000 };
    const held = Array.from({ length: MAX_SEARCHES_PER_OWNER }, () => h.service.search(h.owner, id, slow));
    const started = performance.now();
    await assert.rejects(
      h.service.search(h.owner, id, slow),
      (e: Error) => code('LIMIT_REACHED')(e) && new RegExp(`${MAX_SEARCHES_PER_OWNER} searches`).test(e.message),
    );
    assert.ok(performance.now() - started < 50, 'the refusal comes at once');
    // Another owner's quick search while this one holds every search it may: it does not wait for them.
    const quick = h.service.createOwner('quick');
    const quickId = (await h.service.open(quick)).sessionId;
    await h.service.send(quick, quickId, { input: 'echo needle' });
    const asked = performance.now();
    const found = await h.service.search(quick, quickId, { pattern: 'needle' });
    const waited = performance.now() - asked;
    assert.ok(found.matches.length >= 1);
    assert.ok(waited < 1000, `the other owner's search took ${waited.toFixed(0)} ms`);
    // Many owners at once, each at its cap: search threads grow by the pool at most.
    const owners = await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const owner = h.service.createOwner(`crowd-${i}`);
        return { owner, sessionId: (await h.service.open(owner)).sessionId };
      }),
    );
    const opened = threads();
    const crowd = owners.flatMap(({ owner, sessionId }) =>
      Array.from({ length: MAX_SEARCHES_PER_OWNER }, () => h.service.search(owner, sessionId, slow)),
    );
    let most = 0;
    const sampled = performance.now();
    while (performance.now() - sampled < 1500) {
      most = Math.max(most, threads() - opened);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await Promise.allSettled([...held, ...crowd]);
    assert.ok(most <= POOL_JOBS, `threads grew by ${most} with ${crowd.length} searches of ${owners.length} owners in flight`);
  });

  it("matches the until patterns of many owners' waits in the same bounded pool: threads grow by the pool at most", async () => {
    h = harness({ maxSessionsPerOwner: 4 });
    const owners = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const owner = h.service.createOwner(`waiter-${i}`);
        return { owner, sessionId: (await h.service.open(owner)).sessionId };
      }),
    );
    // Each session prints, once its wait has begun, a line on which (a+)+b backtracks past the match
    // bound (and which no piece of matches, however the output is cut).
    await Promise.all(
      owners.map(({ owner, sessionId }) =>
        h.service.send(owner, sessionId, { input: `sleep 1; printf 'a%.0s' {1..40}; echo '!'; sleep 30`, timeoutMs: 300 }),
      ),
    );
    const opened = threads();
    const waits = owners.map(({ owner, sessionId }) => h.service.wait(owner, sessionId, { until: /(a+)+b/m, timeoutMs: 20_000 }));
    const settled = Promise.allSettled(waits);
    let most = 0;
    const sampled = performance.now();
    while (performance.now() - sampled < 3000) {
      most = Math.max(most, threads() - opened);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    for (const e of await settled)
      assert.ok(
        e.status === 'rejected' && /was stopped: one match/.test((e.reason as Error).message),
        String(e.status === 'rejected' ? e.reason : 'the wait returned'),
      );
    assert.ok(most <= POOL_JOBS, `threads grew by ${most} with ${waits.length} waits of ${owners.length} owners matching`);
  });

  it('sizes text before checking or showing any of it: two million zero-width spaces are refused in under 50 ms', () => {
    const text = '\u200b'.repeat(2_000_000);
    for (const check of [() => checkSendInput({ input: text }), () => checkRunCommand(text)]) {
      const started = performance.now();
      assert.throws(check, (e: Error) => code('INVALID_ARGUMENT')(e) && new RegExp(`at most ${MAX_INPUT_BYTES} bytes`).test(e.message));
      const took = performance.now() - started;
      assert.ok(took < 50, `refused in ${took.toFixed(1)} ms`);
    }
    const started = performance.now();
    assert.throws(
      () => checkKeys(['x'.repeat(5_000_000)]),
      (e: Error) => code('INVALID_ARGUMENT')(e) && /keys\[0\] is 5000000 characters long/.test(e.message),
    );
    assert.ok(performance.now() - started < 50);
  });
});
