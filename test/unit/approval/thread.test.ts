// The auto-approval judge in its worker thread (src/approval/approvalThread.ts), bundled from the
// sources as the extension ships it: a decision comes back; a person's regular expression that
// backtracks without end is stopped at the bound (not approved, saying why) and the next line is
// judged by a new worker.
import * as assert from 'node:assert/strict';
import { ApprovalThread } from '../../../src/approval/approvalThread';
import type { ApprovalContext } from '../../../src/approval/types';
import { approvalWorkerEntry, treeSitterWasmFolder } from '../../helpers/workerEntry';

const context = (rules: ApprovalContext['rules']): ApprovalContext => ({
  rules,
  cwd: '/tmp',
  workspaceFolders: ['/tmp'],
  blockFileWrites: 'outsideWorkspace',
  npmScripts: [],
  shellNames: [],
});
const rule = (key: string, approve: boolean) => ({ key, approve, matchCommandLine: false, source: 'settings' as const });

describe('auto approval in a worker thread', function () {
  let thread: ApprovalThread;
  afterEach(() => thread.dispose());

  it('judges a line in the worker: approved with its rule, or not with the reasons', async () => {
    thread = new ApprovalThread(approvalWorkerEntry(), treeSitterWasmFolder(), 20_000);
    const rules = [rule('git status', true), rule('rm', false)];
    const yes = await thread.decide('git status 2>&1', context(rules));
    assert.equal(yes.approved, true);
    assert.deepEqual(
      yes.rules.map((r) => r.key),
      ['git status'],
    );
    const no = await thread.decide('git status; rm -rf x', context(rules));
    assert.equal(no.approved, false);
    assert.ok(
      no.reasons.some((r) => r.includes('`rm` denies `rm -rf x`')),
      JSON.stringify(no.reasons),
    );
  });

  it('a regular expression that backtracks without end is stopped at the bound: not approved, and the next line is judged', async () => {
    thread = new ApprovalThread(approvalWorkerEntry(), treeSitterWasmFolder(), 3000);
    await thread.decide('ls', context([rule('ls', true)])); // the worker is up and the grammar loaded
    const started = Date.now();
    const stuck = await thread.decide(`echo ${'a'.repeat(40)}!`, context([rule('/^echo (a+)+$/', true)]));
    assert.equal(stuck.approved, false);
    assert.match(stuck.reasons.join(' '), /not judged within 3000 ms/);
    assert.ok(Date.now() - started < 10_000);
    const next = await thread.decide('ls', context([rule('ls', true)]));
    assert.equal(next.approved, true);
  });
});
