/**
 * Keys that would run a line no confirmation shows, on the real pty-bash backend (real node-pty,
 * real bash, real programs): keys a program leaves unread reach the shell's prompt, the line
 * editor's editor (Ctrl-X Ctrl-E, vi's `v`), Meta keys in an 8-bit locale, Ctrl-C with no
 * interrupt character, and keys the person typed during Take Over. Each case puts a command that
 * creates a marker file on the shell's history and proves the marker is still absent.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../../../src/terminal/errors';
import type { TerminalConfig } from '../../../src/terminal/config';
import type { SendRequest } from '../../../src/terminal/types';
import { Harness, harness, homeWithRc, sleep } from '../../helpers/terminalHarness';
import { until } from '../../helpers/wait';

const refused = (pattern: RegExp) => (e: unknown) => e instanceof TerminalError && e.code === 'INVALID_ARGUMENT' && pattern.test(e.message);

describe('terminal keys that would run a line no confirmation shows (pty-bash)', function () {
  this.timeout(60_000);
  let h: Harness;
  let id: string;
  let marker: string;
  const send = (request: SendRequest | string, timeoutMs?: number) =>
    h.service.send(h.owner, id, typeof request === 'string' ? { input: request, timeoutMs } : { timeoutMs, ...request });
  /** Opens a session whose history holds a command that creates `marker`, then removes the marker. */
  const open = async (config: Partial<TerminalConfig> = {}, rc?: string) => {
    h = harness({ quietThresholdMs: 15_000, ...config });
    id = (await h.service.open(h.owner, { cwd: h.tmp, ...(rc !== undefined && { env: { HOME: homeWithRc(h.tmp, rc) } }) })).sessionId;
    marker = path.join(h.tmp, 'HISTORY-RAN');
    await send(`touch ${marker}`);
    fs.rmSync(marker);
  };
  /** Asserts that something does NOT happen: the recalled line may not run in the half second after. */
  const notRun = async (why: string) => {
    await sleep(500);
    assert.equal(fs.existsSync(marker), false, why);
  };

  afterEach(async () => h.dispose());

  it('a program reading lines (canonical mode): keys after its line are judged as at an empty prompt, and Up Up Enter there is refused', async () => {
    await open();
    assert.equal((await send(`python3 -c 'input("Continue? [y/N] ")'`)).waiting, 'program-input');
    await assert.rejects(
      send({ keys: ['y', 'Enter', 'Up', 'Up', 'Enter'] }),
      refused(
        /nothing was pressed.*reads whole lines.*after "Enter" \(keys\[1\]\).*"Up" \(keys\[2\]\).*"Enter" \(keys\[4\]\) would run it/,
      ),
    );
    await notRun('python read y, the shell ran a recalled line');
    // Its own line, and keys that stay on it, are pressed as before.
    const r = await send({ keys: ['y', 'Up', 'Enter'] });
    assert.equal(r.waiting, 'shell-prompt');
    assert.equal(r.exitCode, 0);
    await notRun('keys inside the program line ran a recalled line');
  });

  it('a program reading key by key (raw mode): keys after the first are judged as at an empty prompt; Up Enter to a REPL still works', async () => {
    await open();
    assert.equal((await send('read -n1 x; echo "got [$x]"')).waiting, 'program-input');
    await assert.rejects(
      send({ keys: ['y', 'Up', 'Up', 'Enter'] }),
      refused(/nothing was pressed.*reads key by key.*after "y" \(keys\[0\]\).*"Up" \(keys\[1\]\).*"Enter" \(keys\[3\]\) would run it/),
    );
    await notRun('read took y, the shell ran a recalled line');
    assert.match((await send({ keys: ['y'] })).output, /got \[y\]$/);
    // Python's REPL edits its own history with readline: Up Enter runs its last statement again.
    assert.equal((await send('python3 -q')).waiting, 'program-input');
    assert.match((await send('6*7')).output, /42/);
    assert.match((await send({ keys: ['Up', 'Enter'] })).output, /6\*7\s+42/);
    await send({ keys: ['Ctrl-D'] });
    await notRun('a REPL key ran a recalled line');
  });

  it('keys a program may have left unread make the next prompt hold unshown text: a later Enter there is refused until Ctrl-C or text', async () => {
    await open();
    assert.equal((await send('read -n1 x')).waiting, 'program-input');
    // read takes x; Up reaches the shell's new prompt and recalls a line.
    assert.equal((await send({ keys: ['x', 'Up'] })).waiting, 'shell-prompt');
    await until('the recalled line on the prompt', () => /read -n1 x\s*$/.test(h.service.read(h.owner, id, { screen: true }).text));
    assert.equal(h.service.sendTarget(h.owner, id).receiver.kind, 'shell-prompt');
    await assert.rejects(
      send({ keys: ['Enter'] }),
      refused(/nothing was pressed.*keys sent to a program.*"Enter" \(keys\[0\]\) would run/),
    );
    await assert.rejects(send({ keys: ['Ctrl-C', 'Enter'] }), refused(/nothing was pressed/));
    await notRun('the line the program left ran');
    // Ctrl-C alone ends the line: the new prompt is empty.
    assert.equal((await send({ keys: ['Ctrl-C'] })).waiting, 'shell-prompt');
    assert.equal((await send({ keys: ['Enter'] })).waiting, 'shell-prompt');
    // Text replaces the line, whatever it held.
    await send('read -n1 x');
    await send({ keys: ['x', 'Up'] });
    assert.equal((await send('echo typed')).output, 'typed');
    assert.equal((await send({ keys: ['e', 'c', 'h', 'o', 'Space', 'k', 'Enter'] })).output, 'k');
    await notRun('a line left by a program ran');
  });

  it('Ctrl-X is refused at the prompt: Ctrl-X Ctrl-E would edit a recalled line in an editor and run it', async () => {
    await open();
    await assert.rejects(send({ keys: ['Up', 'Ctrl-X', 'Ctrl-E'] }), refused(/nothing was pressed.*"Ctrl-X" \(keys\[1\]\).*editor/));
    await assert.rejects(send({ keys: ['Ctrl-X'] }), refused(/nothing was pressed.*"Ctrl-X"/));
    await notRun('the editor ran the recalled line');
  });

  it('in vi mode, v after Escape (edit the line in an editor and run it) is refused, in one send or after an earlier one', async () => {
    await open({}, 'set -o vi\n');
    await assert.rejects(
      send({ keys: ['Up', 'Escape', 'v'] }),
      refused(/nothing was pressed.*"v" \(keys\[2\]\).*vi's command mode.*editor/),
    );
    await send({ keys: ['Escape'] });
    await assert.rejects(send({ keys: ['v'] }), refused(/nothing was pressed.*"v" \(keys\[0\]\).*editor/));
    await notRun('the editor ran the recalled line');
    await send({ keys: ['Ctrl-C'] });
    // v typed in insert mode is a character.
    assert.equal((await send({ keys: ['e', 'c', 'h', 'o', 'Space', 'v', 'Enter'] })).output, 'v');
  });

  it("the controlled prompt binds no key to edit-and-execute-command (Ctrl-X Ctrl-E, vi's v), in case such a key reaches it anyway", async () => {
    await open();
    const bound = await send("for m in emacs vi-insert vi-command; do bind -p -m $m | grep -c 'edit-and-execute-command$'; done");
    assert.equal(bound.output, '0\n0\n0');
  });

  it('in a locale without UTF-8 a non-ASCII key is a character, not Meta (ļ is Meta-D Meta-<, the first history line)', async () => {
    await open({ env: { LANG: null, LC_ALL: null, LC_CTYPE: null, LANGUAGE: null } });
    assert.equal((await send('locale | grep LC_CTYPE')).output, 'LC_CTYPE="POSIX"');
    await send({ keys: ['ļ', 'Enter'] }).catch(() => undefined);
    await notRun('ļ recalled the first history line and Enter ran it');
  });

  it('Ctrl-C with no interrupt character (stty intr undef) does not empty the line: Enter after it is refused', async () => {
    await open();
    await send('stty intr undef');
    await assert.rejects(
      send({ keys: ['Up', 'Up', 'Ctrl-C', 'Enter'] }),
      refused(/nothing was pressed.*"Up" \(keys\[0\]\).*"Enter" \(keys\[3\]\)/),
    );
    await notRun('Enter after Ctrl-C ran the recalled line');
    await send({ keys: ['Up', 'Up', 'Ctrl-C'] });
    await assert.rejects(send({ keys: ['Enter'] }), refused(/nothing was pressed.*"Up".*earlier send/));
    await notRun('Enter after an earlier Ctrl-C ran the recalled line');
    assert.equal((await send('stty intr ^C; echo back')).output, 'back');
  });

  it('keys the person typed during Take Over make the line hold unshown text: the agent’s Enter is refused, saying so', async () => {
    await open();
    assert.equal(h.service.takeOver(h.owner, id), true);
    h.service.writeUserInput(h.owner, id, '\x1b[A');
    await until('the recalled line on the prompt', () =>
      /touch \S+HISTORY-RAN\s*$/.test(h.service.read(h.owner, id, { screen: true }).text),
    );
    h.service.handBack(h.owner, id);
    const { receiver } = h.service.sendTarget(h.owner, id);
    assert.equal(receiver.kind === 'shell-prompt' && receiver.lineKeys?.foreign, 'user');
    await assert.rejects(
      send({ keys: ['Enter'] }),
      refused(/nothing was pressed.*typed by you during Take Over.*"Enter" \(keys\[0\]\) would run/),
    );
    await notRun('the line the person recalled ran');
    assert.equal((await send('echo typed')).output, 'typed');
    assert.equal((await send({ keys: ['Enter'] })).waiting, 'shell-prompt');
  });

  it('a marker saying line editing is off (readonly __dsh_le=n) does not turn the check off: the terminal says readline reads', async () => {
    await open();
    await send('readonly __dsh_le=n 2>/dev/null');
    await assert.rejects(send({ keys: ['Up', 'Up', 'Enter'] }), refused(/nothing was pressed.*"Up" \(keys\[0\]\)/));
    await notRun('the marker turned the check off');
  });

  it('vim: Escape : w q Enter is pressed as one send; inserted text with Escape … Enter after it is refused, saying where to split', async () => {
    await open();
    const file = path.join(h.tmp, 'note.txt');
    assert.equal((await send(`vim -u NONE -N -n ${file}`)).waiting, 'program-input');
    await assert.rejects(
      send({ keys: ['i', 'h', 'i', 'Escape', ':', 'w', 'q', 'Enter'] }),
      refused(
        /nothing was pressed.*reads key by key.*after "i" \(keys\[0\]\).*"Escape" \(keys\[3\]\).*"Enter" \(keys\[7\]\) would run it.*Send the keys up to "i" \(keys\[0\]\) alone/,
      ),
    );
    await send({ keys: ['i', 'h', 'i'] });
    assert.equal((await send({ keys: ['Escape', ':', 'w', 'q', 'Enter'] })).waiting, 'shell-prompt');
    assert.equal(fs.readFileSync(file, 'utf8'), 'hi\n');
  });

  it('in a UTF-8 locale non-ASCII keys type themselves at the prompt and may be followed by Enter', async () => {
    await open();
    assert.equal((await send({ keys: ['e', 'c', 'h', 'o', 'Space', 'é', 'ļ', '中', 'Enter'] })).output, 'éļ中');
  });
});
