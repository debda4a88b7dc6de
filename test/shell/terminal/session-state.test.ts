/**
 * Session state an earlier command set cannot change what a later send does unseen (real bash,
 * real readline): the send's own kill-line key and paste brackets are bound again, and history
 * expansion turned off again, at every prompt.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sendConfirmationText } from '../../../src/vscode/tools/terminal/confirmation';
import { confirmedIdentity } from '../../../src/terminal/sendTarget';
import { harnessPerTest } from '../../helpers/terminalHarness';

describe('session state cannot change what text does unseen (real bash)', function () {
  this.timeout(60_000);
  const h = harnessPerTest();

  it("a bind -x or a readline macro on the send's kill-line key does not run before the next send", async () => {
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
    const text = sendConfirmationText(
      { kind: 'text', text: 'ls -l | grep x; cat notes.txt; echo ls' },
      h.service.info(h.owner, id),
      h.service.sendTarget(h.owner, id),
    );
    assert.match(text, /\*\*Defined in this shell\*\*: `ls` is an alias for `echo not-ls`, `cat` is a function/);
    assert.doesNotMatch(text, /`echo` is/);
  });

  it('an alias of 100 000 characters named 1 000 times in the text: the confirmation names it once, its length and its start', async () => {
    const id = (await h.service.open(h.owner)).sessionId;
    await h.service.send(h.owner, id, { input: `alias ls="echo start-of-alias ${'x'.repeat(100_000)} end-of-alias"` });
    const text = sendConfirmationText(
      { kind: 'text', text: Array.from({ length: 1000 }, () => 'ls').join('; ') },
      h.service.info(h.owner, id),
      h.service.sendTarget(h.owner, id),
    );
    const defined = text.slice(text.indexOf('**Defined in this shell**'));
    assert.ok(defined.length < 2000, `${defined.length} characters`);
    assert.match(defined, /`ls` is an alias of 100033 characters for `echo start-of-alias x+…`/);
    assert.equal(defined.split('`ls`').length, 2, 'named once');
  });

  it('PS0, the prompt strings DSH Bridge sets again and its prompt functions cannot be changed to run code around a later command', async () => {
    const id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    const ran = (name: string) => fs.existsSync(path.join(h.tmp, name));
    await h.service.send(h.owner, id, { input: "PS0='$(touch ps0-ran)'" });
    await h.service.send(h.owner, id, { input: "__dsh_ps0+='$(touch ps0-var-ran)'; __dsh_ps1+='$(touch ps1-var-ran)'" });
    await h.service.send(h.owner, id, { input: "__dsh_prompt() { touch prompt-fn-ran; }; alias __dsh_prompt='touch prompt-alias-ran'" });
    // The prompt's number is then counted again from 1, which the marker does not take for the
    // next prompt: this send returns on its time bound.
    await h.service.send(h.owner, id, { input: "__dsh_seq='a[$(touch seq-ran)]'", timeoutMs: 2000 });
    await h.service.send(h.owner, id, { input: 'true' });
    await h.service.send(h.owner, id, { input: 'true' });
    for (const name of ['ps0-ran', 'ps0-var-ran', 'ps1-var-ran', 'prompt-fn-ran', 'prompt-alias-ran', 'seq-ran'])
      assert.equal(ran(name), false, `${name}: the code did not run`);
    const r = await h.service.send(h.owner, id, { input: 'echo still-marked' });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0);
  });

  it("the confirmation names the shell's PROMPT_COMMAND entries, and refuses a send when one was added after it", async () => {
    const id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    const before = h.service.sendTarget(h.owner, id);
    await h.service.send(h.owner, id, { input: "PROMPT_COMMAND+=('touch pc-ran')" });
    const text = sendConfirmationText({ kind: 'text', text: 'ls' }, h.service.info(h.owner, id), h.service.sendTarget(h.owner, id));
    assert.match(text, /PROMPT_COMMAND/);
    assert.match(text, /touch pc-ran/);
    assert.doesNotMatch(text, /__dsh/, 'its own entries are not listed');
    await assert.rejects(
      h.service.send(h.owner, id, { input: 'ls', expectReceiver: confirmedIdentity(before) }),
      /the confirmation showed no trap in the shell, but now the traps "PROMPT_COMMAND: 'touch pc-ran'"/,
    );
  });

  it("PROMPT_COMMAND entries of the person's startup files are shown as theirs; one added later is held against the send", async () => {
    const home = fs.mkdtempSync(path.join(h.tmp, 'home-'));
    fs.writeFileSync(path.join(home, '.bashrc'), 'mine() { :; }\nPROMPT_COMMAND="mine${PROMPT_COMMAND:+;$PROMPT_COMMAND}"\n');
    const id = (await h.service.open(h.owner, { cwd: h.tmp, env: { HOME: home } })).sessionId;
    const target = h.service.sendTarget(h.owner, id);
    assert.deepEqual(target.traps, { kind: 'set', text: "PROMPT_COMMAND: 'mine' (set up by the startup files)", startupHooksOnly: true });
    const text = sendConfirmationText({ kind: 'text', text: 'ls' }, h.service.info(h.owner, id), target);
    assert.match(
      text,
      /in `[^`]+`; at every prompt this shell also runs hooks its startup files set up \(`PROMPT_COMMAND: 'mine' \(set up by the startup files\)`\)/,
    );
    await h.service.send(h.owner, id, { input: "PROMPT_COMMAND+=('touch pc-ran')" });
    assert.deepEqual(h.service.sendTarget(h.owner, id).traps, {
      kind: 'set',
      text: "PROMPT_COMMAND: 'mine' (set up by the startup files)\nPROMPT_COMMAND: 'touch pc-ran'",
    });
  });

  it('the confirmation says so when a function named builtin stands in for the builtins the prompt code runs', async () => {
    const id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    await h.service.send(h.owner, id, { input: 'builtin() { command builtin "$@"; }' });
    const target = h.service.sendTarget(h.owner, id);
    assert.deepEqual(target.traps, { kind: 'unknown', standIn: true });
    const text = sendConfirmationText({ kind: 'text', text: 'ls' }, h.service.info(h.owner, id), target);
    assert.match(text, /a function or program stands in for a builtin its prompt code runs \(such as a function named `builtin`\)/);
  });

  it('functions named export, return or [ do not run at the prompt in place of the builtins', async () => {
    const id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
    await h.service.send(h.owner, id, { input: ['export', 'return', '['].map((n) => `${n}() { touch ./fn-ran; }`).join('; ') });
    await h.service.send(h.owner, id, { input: 'true' });
    assert.equal(fs.existsSync(path.join(h.tmp, 'fn-ran')), false);
    assert.equal(h.service.sendTarget(h.owner, id).traps, undefined);
  });
});
