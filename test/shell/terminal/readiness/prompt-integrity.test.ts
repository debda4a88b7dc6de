/**
 * The controlled prompt (markers.ts controlledPromptRc) against what the session's own shell code
 * and programs can do: exporting the prompt's variables, shell options that break prompt code, and
 * a cancelled send. Real node-pty, real bash, real files.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness, harness } from '../../../helpers/terminalHarness';

describe('controlled prompt integrity (pty-bash)', function () {
  this.timeout(120_000);
  let h: Harness;
  let id: string;
  const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });

  beforeEach(async () => {
    h = harness({ quietThresholdMs: 15_000 });
    id = (await h.service.open(h.owner, { cwd: h.tmp })).sessionId;
  });
  afterEach(async () => h.dispose());

  describe('the nonce never reaches a child program', () => {
    /**
     * A program that looks for the prompt's marker in its environment and, when it finds it,
     * prints a forged prompt (exit status 7) on the terminal, then runs on for 2 s.
     */
    function forger(): string {
      const script = path.join(h.tmp, 'forge.sh');
      fs.writeFileSync(
        script,
        [
          `n=$(env | grep -o '6973;[0-9a-f]\\{16\\};' | head -n 1)`,
          `[ -n "$n" ] && printf '\\033]%sP;7;999;e\\007$ ' "$n" >&2`,
          'sleep 2',
          'echo forger-done >&2',
        ].join('\n'),
      );
      return script;
    }

    for (const [name, setup] of [
      ['set -a, then any assignment', 'set -a; x=1'],
      ['export PS1 PS0 PS2 PROMPT_COMMAND and the private variables', 'export PS0 PS1 PS2 PROMPT_COMMAND ${!__dsh_*}'],
    ] as const) {
      it(`${name}: no variable a child sees carries the nonce, and a forged prompt cannot end a send`, async () => {
        const script = forger();
        await send(setup);
        // What a child of the shell sees in its environment, whatever the prompt did since.
        const seen = await send(`env | grep -c '6973;'; true`);
        assert.equal(seen.output, '0', 'a child sees the marker in its environment');
        // Run in a command substitution, the program is in the shell's own process group: only
        // the nonce stands between its forged prompt and a send that returns while it runs.
        const r = await send(`out=$(sh ${script}); echo after`);
        assert.equal(r.waiting, 'shell-prompt');
        assert.equal(r.exitCode, 0);
        assert.ok(r.durationMs >= 1800, `returned after ${r.durationMs} ms on a forged prompt`);
        assert.match(r.output, /forger-done\nafter$/);
        // Same with the export done in the command line that starts the program.
        const same = await send(`${setup}; out=$(sh ${script}); echo after`);
        assert.equal(same.exitCode, 0);
        assert.ok(same.durationMs >= 1800, `returned after ${same.durationMs} ms on a forged prompt`);
      });
    }
  });

  describe('shell options set by a command leave the prompt working', () => {
    /** After `setup`, commands answer at the controlled prompt with their own output and exit code. */
    async function promptWorks(setup: string, { traced = false, errexit = false } = {}): Promise<void> {
      const first = await send(setup);
      assert.equal(first.waiting, 'shell-prompt', `after ${setup}`);
      assert.equal(first.exitCode, 0, `after ${setup}: ${first.output}`);
      const ok = await send('echo one');
      assert.equal(ok.waiting, 'shell-prompt');
      assert.equal(ok.exitCode, 0);
      assert.equal(ok.output, traced ? '+ echo one\none' : 'one');
      // Under `set -e` a failing command ends the shell, as bash does anywhere.
      if (!errexit) {
        const failed = await send('(exit 3)');
        assert.equal(failed.waiting, 'shell-prompt');
        assert.equal(failed.exitCode, 3);
        assert.equal(failed.output, traced ? '+ exit 3' : '');
      }
      // The traps report is still written at each prompt: the confirmation knows there is none.
      assert.equal(h.service.sendTarget(h.owner, id).traps, undefined);
      assert.doesNotMatch(h.service.read(h.owner, id, { count: 50 }).text, /__dsh|6973|cannot overwrite/);
    }

    it('shopt -u promptvars', async () => promptWorks('shopt -u promptvars'));
    it('set -o noclobber', async () => promptWorks('set -o noclobber'));
    it('set -x: no trace of the prompt code in the output', async () => promptWorks('set -x', { traced: true }));
    it('set -euo pipefail', async () => promptWorks('set -euo pipefail', { errexit: true }));
  });

  describe('the prompt cycle costs the shell no process and changes none of its state', () => {
    it("starts no process: the CPU time of the shell's children (bash `times`) is unchanged over 20 commands", async () => {
      // `times` prints the shell's own user and system time, then its waited-for children's: a
      // subshell or program started at a prompt adds to the second line, builtins never do.
      const children = async () => (await send('times')).output.split('\n')[1];
      const before = await children();
      for (let i = 0; i < 20; i++) await send('true');
      assert.equal(await children(), before, 'the prompt cycle started processes');
    });

    it('leaves the shell options as the user set them, in and out of POSIX mode, and still reports a trap', async () => {
      await send('shopt -u expand_aliases; shopt -u inherit_errexit');
      await send('true');
      assert.equal(
        (await send('shopt -p expand_aliases inherit_errexit; [[ -o posix ]] || echo not-posix')).output,
        'shopt -u expand_aliases\nshopt -u inherit_errexit\nnot-posix',
      );
      await send('shopt -s expand_aliases inherit_errexit');
      await send('true');
      assert.equal(
        (await send('shopt -p expand_aliases inherit_errexit; echo "${POSIXLY_CORRECT-unset}"')).output,
        'shopt -s expand_aliases\nshopt -s inherit_errexit\nunset',
      );
      await send("set -o posix; trap 'cd /' USR1");
      assert.equal((await send('[[ -o posix ]] && echo posix')).output, 'posix');
      assert.match(JSON.stringify(h.service.sendTarget(h.owner, id).traps), /cd \/' (SIG)?USR1/);
    });

    it('leaves off the options POSIX mode turns on and leaving it does not turn off, and shift_verbose on', async () => {
      // Entering POSIX mode sets inherit_errexit, sourcepath and interactive_comments, and leaving
      // it keeps them (bash 5.2); leaving it unsets shift_verbose.
      const names = 'inherit_errexit sourcepath interactive_comments shift_verbose';
      await send('shopt -u inherit_errexit sourcepath interactive_comments; shopt -s shift_verbose');
      await send('true');
      assert.equal(
        (await send(`shopt -p ${names}`)).output,
        'shopt -u inherit_errexit\nshopt -u sourcepath\nshopt -u interactive_comments\nshopt -s shift_verbose',
      );
      await send('shopt -u shift_verbose');
      await send('true');
      assert.equal(
        (await send(`shopt -p ${names}`)).output,
        'shopt -u inherit_errexit\nshopt -u sourcepath\nshopt -u interactive_comments\nshopt -u shift_verbose',
      );
    });
  });

  describe('a cancelled send types nothing', () => {
    /** The send was refused as cancelled, and no byte of it reached the terminal or ran. */
    async function typedNothing(sent: Promise<unknown>, marker: string): Promise<void> {
      await assert.rejects(sent, (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CANCELLED');
        assert.match(error.message, /nothing was typed/);
        return true;
      });
      const after = await send(`ls ${h.tmp}; echo end`);
      assert.equal(after.output, 'end', 'the cancelled command ran');
      assert.ok(!h.service.read(h.owner, id, { count: 100 }).text.includes(marker), 'the cancelled text reached the terminal');
      assert.ok(
        !h.service.history(h.owner, id).commands.some((c) => c.command.includes(marker)),
        'the command record has the cancelled text',
      );
    }

    it('cancelled before the send was admitted', async () => {
      const cancel = new AbortController();
      cancel.abort(new Error('the tool call was cancelled'));
      await typedNothing(h.service.send(h.owner, id, { input: `touch ${h.tmp}/ran-early`, signal: cancel.signal }), 'ran-early');
    });

    it('cancelled while the send is being admitted, before its text is written', async () => {
      const cancel = new AbortController();
      const sent = h.service.send(h.owner, id, { input: `touch ${h.tmp}/ran-late`, signal: cancel.signal });
      cancel.abort(new Error('the tool call was cancelled'));
      await typedNothing(sent, 'ran-late');
    });

    it('keys cancelled before they are pressed are not pressed', async () => {
      assert.equal((await send(`read -r line; echo "got[$line]"`)).waiting, 'program-input');
      const cancel = new AbortController();
      cancel.abort();
      await assert.rejects(h.service.send(h.owner, id, { keys: ['x', 'Enter'], signal: cancel.signal }), { code: 'CANCELLED' });
      const r = await send('y');
      // The echo of what was typed, then the line read: no x before it.
      assert.equal(r.output, 'y\ngot[y]');
    });
  });
});
