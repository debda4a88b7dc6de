// Who let an agent's command run, kept with the command (commandRecord.ts `approvedBy`) and said in
// the panel's status line after its output (commandMarks.ts), on a real pty-bash session.
import * as assert from 'node:assert/strict';
import { statusLine } from '../../../src/terminal/panel/commandMarks';
import { harnessPerTest } from '../../helpers/terminalHarness';

describe('the command record says who let a command run', function () {
  const h = harnessPerTest();

  it('approvedBy is kept with the command and the status line names it; a send that does not say leaves it out', async () => {
    const { sessionId } = await h.service.open(h.owner, { cwd: h.tmp });
    await h.service.send(h.owner, sessionId, { input: 'echo ruled', approvedBy: 'rule "echo"' });
    await h.service.send(h.owner, sessionId, { input: 'echo unsaid' });
    const [unsaid, ruled] = h.service.history(h.owner, sessionId, {}).commands;
    assert.equal(ruled?.command, 'echo ruled');
    assert.equal(ruled?.approvedBy, 'rule "echo"');
    assert.match(statusLine(ruled), /✓ command \d+ · exit 0 · [\d.]+ s · approved by rule "echo"/);
    assert.equal(unsaid?.approvedBy, undefined);
    assert.doesNotMatch(statusLine(unsaid!), /approved by/);
  });
});
