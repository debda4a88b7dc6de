/**
 * Session state an earlier command set cannot change what a later send does unseen (real bash,
 * real readline): the send's own kill-line key and paste brackets are bound again, and history
 * expansion turned off again, at every prompt.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sendConfirmationText } from '../../src/vscode/tools/terminal/confirmation';
import { Harness, harness } from '../helpers/terminalHarness';

describe('session state cannot change what text does unseen (real bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  beforeEach(() => (h = harness()));
  afterEach(() => h.dispose());

  it('a bind -x or a readline macro on the send\'s kill-line key does not run before the next send', async () => {
    const id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    const hidden = path.join(h.tmp, 'hidden-ran');
    await h.service.send(h.owner, id, { input: `bind -x '"\\e[6973~": "touch ${hidden}; cd /tmp"'` });
    const r = await h.service.send(h.owner, id, { input: 'pwd' });
    assert.equal(r.output.trim().split('\n').pop(), fs.realpathSync(h.tmp));
    assert.equal(fs.existsSync(hidden), false, 'the bound command did not run');
    await h.service.send(h.owner, id, { input: `bind '"\\e[6973~": "cd /tmp\\n"'` });
    const macro = await h.service.send(h.owner, id, { input: 'pwd' });
    assert.equal(macro.output.trim().split('\n').pop(), fs.realpathSync(h.tmp));
  });

  it('set -H does not turn history expansion back on for the next send', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    await h.service.send(h.owner, id, { input: 'echo earlier-line' });
    await h.service.send(h.owner, id, { input: 'set -H' });
    const r = await h.service.send(h.owner, id, { input: 'echo "!!:1*"' });
    assert.equal(r.output.trim().split('\n').pop(), '!!:1*');
  });

  it('the confirmation names an alias or a function that a command of the text runs instead of the program', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    await h.service.send(h.owner, id, { input: "alias ls='echo not-ls'; cat() { echo not-cat; }" });
    const text = sendConfirmationText({ kind: 'text', text: 'ls -l | grep x; cat notes.txt; echo ls' }, h.service.info(h.owner, id), h.service.sendTarget(h.owner, id));
    assert.match(text, /\*\*Defined in this shell\*\*: `ls` is an alias, `cat` is a function/);
    assert.doesNotMatch(text, /`echo` is/);
  });
});
