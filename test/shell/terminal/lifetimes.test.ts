/**
 * The one owner of lifetimes (src/common/lifetimes.ts) over the terminal parts as the composition
 * root makes them: a service, the shared pool of searches and `until` matches, a pty-bash backend
 * with its renderer and redaction workers, the auto-approval thread. Once every part has run work
 * in its worker threads, ending the owner leaves no worker thread, no timer made meanwhile, no pool
 * worker and no session.
 */
import * as assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import nodePty = require('node-pty');
import { ApprovalThread } from '../../../src/approval/approvalThread';
import { Lifetimes } from '../../../src/common/lifetimes';
import { WorkerHost } from '../../../src/common/workerHost';
import { PtyBashBackend } from '../../../src/terminal/bash/ptyBash';
import { resolveTerminalConfig } from '../../../src/terminal/config';
import { MatchPool } from '../../../src/terminal/output/matchPool';
import { TerminalService } from '../../../src/terminal/service';
import { MemoryLog } from '../../helpers/terminalHarness';
import { approvalWorkerEntry, redactionWorkerEntry, screenTextWorkerEntry, treeSitterWasmFolder } from '../../helpers/workerEntry';

describe('the owner of lifetimes, ended', function () {
  this.timeout(120_000);

  it('leaves no worker thread, timer, pool worker or session of the parts it owned', async () => {
    const threadsBefore = WorkerHost.liveNames();
    // Timers made from here on, by id, until they fire or are cleared.
    const timers = new Map<number, string>();
    const hook = createHook({
      init: (id, type) => {
        if (type === 'Timeout') timers.set(id, new Error().stack ?? '');
      },
      destroy: (id) => void timers.delete(id),
    });
    hook.enable();
    const log = new MemoryLog();
    const life = new Lifetimes(5000, (m) => log.warn(m));
    try {
      const config = resolveTerminalConfig({});
      const service = new TerminalService(log, () => config);
      life.onEnd(() => service.closeAll('ended'));
      const owner = life.own(service.createOwner('tools'));
      const pool = life.ownAsync(new MatchPool());
      const backend = life.ownAsync(
        new PtyBashBackend(nodePty, () => config, log, {
          pool,
          renderWorkerEntry: screenTextWorkerEntry(),
          redactionWorkerEntry: redactionWorkerEntry(),
        }),
      );
      life.own(service.registerBackend(backend));
      const approval = life.ownAsync(new ApprovalThread(approvalWorkerEntry(), treeSitterWasmFolder()));

      // Work in every worker: a render and a redaction of long output, a search, an until match, a judgement.
      const { sessionId } = await service.open(owner);
      await service.send(owner, sessionId, { input: `printf '\\033[1mbold\\033[0m %.0s' {1..2000}; echo; echo needle` });
      assert.equal((await service.search(owner, sessionId, { pattern: '^needle$', regex: true })).matches.length, 1);
      await service.send(owner, sessionId, { input: 'sleep 1; echo READY-7; sleep 30', timeoutMs: 200 });
      const waited = await service.wait(owner, sessionId, { until: /READY-\d/m, timeoutMs: 20_000 });
      assert.equal(waited.match, 'READY-7');
      assert.equal(
        (
          await approval.decide('ls', {
            rules: [{ key: 'ls', approve: true, matchCommandLine: false, source: 'settings' }],
            cwd: '/tmp',
            workspaceFolders: ['/tmp'],
            blockFileWrites: 'outsideWorkspace',
            npmScripts: [],
            shellNames: [],
          })
        ).approved,
        true,
      );
      assert.ok(WorkerHost.live >= threadsBefore.length + 4, `worker threads running: ${WorkerHost.liveNames().join(', ')}`);
      assert.ok(pool.threads >= 1);

      const started = performance.now();
      await life.end(5000);
      const took = performance.now() - started;
      assert.ok(took < 5000, `ended in ${took.toFixed(0)} ms`);
      // Every worker thread exited, but the tty holders' scan (src/proc/ttyHolders.ts): its pool is
      // still a module-level one, which no owner holds (named 'bounded jobs', the default).
      const left = WorkerHost.liveNames().filter((name) => name !== 'bounded jobs');
      assert.deepEqual(
        left,
        threadsBefore.filter((name) => name !== 'bounded jobs'),
        'every worker thread of an owned part exited',
      );
      assert.equal(pool.threads, 0, 'the pool holds no worker');
      assert.equal(life.size, 0);
      assert.deepEqual(service.list(owner), [], 'no session');
      // Timers still pending: a timer of an ended part would keep its part (or a thread) reachable.
      await new Promise((resolve) => setImmediate(resolve));
      const pending = [...timers.values()].filter((stack) => !/node_modules[\\/]mocha/.test(stack));
      assert.deepEqual(pending, [], `timers left pending:\n${pending.join('\n\n')}`);
    } finally {
      await life.end(5000);
      hook.disable();
    }
  });
});
