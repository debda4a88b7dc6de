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
import type { TerminalConfig } from '../../src/terminal/config';
import type { SendRequest } from '../../src/terminal/types';
import { Harness, harness, homeWithRc, sleep } from '../helpers/terminalHarness';

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

  it('the controlled prompt binds no key to edit-and-execute-command (Ctrl-X Ctrl-E, vi\'s v), in case such a key reaches it anyway', async () => {
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

  it('in a UTF-8 locale non-ASCII keys type themselves at the prompt and may be followed by Enter', async () => {
    await open();
    assert.equal((await send({ keys: ['e', 'c', 'h', 'o', 'Space', 'é', 'ļ', '中', 'Enter'] })).output, 'éļ中');
  });
});
