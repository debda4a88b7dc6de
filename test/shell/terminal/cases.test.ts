/**
 * The field's terminal failure cases on each real PTY backend (pty-bash, pty-zsh): real node-pty,
 * real bash and zsh, real processes. Each test is named by its case id; the same tests run on
 * both shells, with the shell's own syntax where a case needs it (a startup file, a prompt).
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Harness, firstSession, harness, homeWithRc, waitForPort } from '../../helpers/terminalHarness';
import type { ShellName } from '../../../src/terminal/session/shellDialect';
import { until } from '../../helpers/wait';

for (const shell of ['bash', 'zsh'] as const satisfies readonly ShellName[]) {
  describe(`terminal cases (pty-${shell})`, function () {
    this.timeout(120_000);
    let h: Harness;
    let id: string;
    const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
    const open = async (options = {}) => (id = (await h.service.open(h.owner, options)).sessionId);

    beforeEach(async () => {
      h = harness({ quietThresholdMs: 6_000 }, {}, shell);
    });
    afterEach(async () => h.dispose());

    it('C01 echo hello: stdin_read at the prompt, viewport exactly hello, exit 0', async () => {
      await open();
      const r = await send('echo hello');
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'shell-prompt');
      assert.equal(r.output, 'hello');
      assert.equal(r.exitCode, 0);
      assert.ok(r.durationMs < 5000, `took ${r.durationMs} ms`);
    });

    it('C02 a user rc with a two-line coloured PS1: the controlled prompt wins, no prompt text leaks', async () => {
      const rc = {
        bash: `PS1='\\[\\e[32m\\]$(git branch 2>/dev/null)\\n\\u@\\h \\w\\[\\e[0m\\]\\n\\$ '\n`,
        zsh: `setopt prompt_subst\nPROMPT=$'%{\\e[32m%}$(git branch 2>/dev/null)\\n%n@%m %~%{\\e[0m%}\\n%# '\nRPROMPT='%T'\n`,
      };
      const home = homeWithRc(h.tmp, rc[shell], shell);
      fs.writeFileSync(path.join(home, 'file-one'), '');
      await open({ env: { HOME: home }, cwd: home });
      const r = await send('ls');
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.output, 'file-one');
    });

    it('C05 sleep 20; echo done with a 60 s timeout: no early return, then stdin_read with done', async () => {
      h = harness({ quietThresholdMs: 30_000 }, {}, shell);
      await open();
      const r = await send('sleep 20; echo done', 60_000);
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.output, 'done');
      assert.ok(r.durationMs >= 19_000, `returned after ${r.durationMs} ms, before sleep ended`);
    });

    it('C06 timeout with the command still running; a later read shows the end; a later send gets stdin_read', async () => {
      await open();
      const r = await send("bash -c 'echo start; sleep 3; echo end'", 1000);
      assert.equal(r.waitReason, 'timeout');
      assert.match(r.output, /start/);
      assert.equal(firstSession(h).busy, true);
      await until('the shell back at its prompt', () => h.service.sendTarget(h.owner, id).receiver.kind === 'shell-prompt');
      assert.match(h.service.read(h.owner, id).text, /\nend(\n|$)/);
      const next = await send('echo again');
      assert.equal(next.waitReason, 'stdin_read');
      assert.equal(next.output, 'again');
    });

    it('C07 a silent program that does not read: inferred_idle, never stdin_read', async () => {
      h = harness({ quietThresholdMs: 1500 }, {}, shell);
      await open();
      const r = await send('python3 -c "import time;time.sleep(8);print(1)"', 20_000);
      assert.equal(r.waitReason, 'inferred_idle');
      assert.match(r.foreground?.command ?? '', /python3/);
      h.service.signal(h.owner, id, 'SIGINT');
    });

    it('C08 input(): stdin_read naming python3, then the answer prints and the shell prompt returns', async () => {
      await open();
      const r = await send(`python3 -c "n=input('Name: '); print('hi', n)"`);
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /python3/);
      assert.equal(r.output.split('\n').at(-1), 'Name: ');
      const answer = await send('Bob');
      assert.equal(answer.waitReason, 'stdin_read');
      assert.equal(answer.waiting, 'shell-prompt');
      assert.match(answer.output, /hi Bob/);
      assert.equal(answer.exitCode, 0);
    });

    it('C09 a failing command: stdin_read at the shell, non-zero exit, error text in the viewport', async () => {
      await open();
      const r = await send(`mkdir -p ${h.tmp}/c09/a; rmdir ${h.tmp}/c09 && echo DONE`);
      assert.equal(r.waiting, 'shell-prompt');
      assert.notEqual(r.exitCode, 0);
      assert.match(r.output, /rmdir: .*not empty/);
      assert.doesNotMatch(r.output, /DONE/);
    });

    it('C10 a prompt hidden by a pipe is still seen by the probe', async () => {
      await open();
      const r = await send(`python3 -c "input('Continue [Y/n] ')" | tail -1`);
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /python3/);
      h.service.signal(h.owner, id, 'SIGINT');
    });

    it('C13 a heredoc and a second command in one send: both run, the send returns after the last prompt', async () => {
      await open();
      const r = await send(`cat > ${h.tmp}/c13.py << 'EOF'\nprint("hi")\nEOF\npython3 ${h.tmp}/c13.py`);
      assert.equal(r.waiting, 'shell-prompt');
      assert.equal(r.output, 'hi');
    });

    it('C14 unterminated quote: stdin_read in continuation with the PS2 state visible; SIGINT returns', async () => {
      await open();
      const r = await send(`python3 -c "print('a')`);
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'shell-continuation');
      assert.match(r.output, /> $/);
      assert.ok(r.durationMs < 5000);
      assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
      const back = await send('echo back');
      assert.equal(back.output, 'back');
    });

    it('C15 a subshell, and two lines in one send: both outputs, one return', async () => {
      await open();
      assert.equal((await send('( echo a; echo b )')).output, 'a\nb');
      const r = await send('echo a\necho b');
      assert.equal(r.waiting, 'shell-prompt');
      assert.equal(r.output, 'a\nb');
    });

    it('C16 200 000 x then END: every x accounted for across pages, no marker bytes', async () => {
      await open();
      const r = await send(`python3 -c "import sys;sys.stdout.write('x'*200000)"; echo END`);
      assert.equal(r.waiting, 'shell-prompt');
      assert.equal(r.output, 'x'.repeat(200_000) + 'END');
      assert.doesNotMatch(r.output, /\x1b\]6973/);
      const page = h.service.read(h.owner, id, { count: 10 });
      assert.doesNotMatch(page.text, /6973/);
    });

    it('C21 set -u keeps the marker working; set -e; false exits the shell with code 1', async () => {
      await open();
      const u = await send('set -u');
      assert.equal(u.waitReason, 'stdin_read');
      const ok = await send('echo ok');
      assert.equal(ok.output, 'ok');
      assert.doesNotMatch(ok.output, /unbound/);
      await send('set -e');
      const r = await send('false');
      assert.equal(r.waitReason, 'session_exit');
      assert.deepEqual(r.sessionStatus, { kind: 'exited', exitCode: 1, signal: null });
    });

    it('C22 exit 42: session_exit with code 42, listed as exited, a new session opens fine', async () => {
      await open();
      const r = await send('exit 42');
      assert.equal(r.waitReason, 'session_exit');
      assert.deepEqual(r.sessionStatus, { kind: 'exited', exitCode: 42, signal: null });
      assert.deepEqual(firstSession(h).sessionStatus, r.sessionStatus);
      await assert.rejects(send('echo x'), /has exited/);
      const second = await h.service.open(h.owner);
      assert.equal((await h.service.send(h.owner, second.sessionId, { input: 'echo fine' })).output, 'fine');
    });

    it('C23 git commit without an editor and git log with 200 commits finish without a pager', async () => {
      await open({ cwd: h.tmp });
      await send('git init -q repo && cd repo && git config user.email t@example.com && git config user.name T');
      const commit = await send('git commit -q --allow-empty && echo committed');
      assert.equal(commit.waiting, 'shell-prompt');
      // Making 200 commits takes 10 s or more on a busy 2-core machine: a dot per commit keeps the
      // setup from reading as silence (the quiet threshold here is 6 s), which is not what this case is about.
      const setup = await send('for i in $(seq 1 200); do git commit -q --allow-empty -m "c$i"; printf .; done; echo');
      assert.equal(setup.waiting, 'shell-prompt', JSON.stringify({ ...setup, output: setup.output.slice(-200) }));
      const log = await send('git log --oneline | wc -l; git log | tail -1 >/dev/null; git log --oneline');
      assert.equal(log.waiting, 'shell-prompt');
      assert.equal(log.exitCode, 0);
    });

    it('C25 a second send while a command runs is refused as busy, naming the command, never typed in', async () => {
      await open();
      const r = await send(`bash -c 'echo starting; sleep 120; echo finished'`, 1000);
      assert.equal(r.waitReason, 'timeout');
      await assert.rejects(send('ls'), (e: Error & { code?: string }) => e.code === 'SESSION_BUSY' && /sleep 120/.test(e.message));
      h.service.signal(h.owner, id, 'SIGINT');
      const after = await send('echo $?');
      assert.equal(after.output, '130');
      assert.doesNotMatch(h.service.read(h.owner, id).text, /\nls\n/);
    });

    it('C26 getpass: stdin_read naming python3 with echo off', async () => {
      await open();
      const r = await send(`python3 -c "import getpass;getpass.getpass('Password: ')"`);
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /python3/);
      assert.equal(r.echoOff, true);
      h.service.signal(h.owner, id, 'SIGINT');
    });

    it('C27 cat reads at once; abc echoes; SIGINT gives exit 130', async () => {
      await open();
      const r = await send('cat');
      assert.equal(r.waiting, 'program-input');
      assert.equal(r.foreground?.command, 'cat');
      const abc = await send('abc');
      assert.match(abc.output, /abc/);
      assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
      assert.equal((await send('echo $?')).output, '130');
    });

    it('C28 a program reading /dev/tty through another descriptor is seen', async () => {
      await open();
      const r = await send(`python3 -c "open('/dev/tty').readline()"`);
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /python3/);
      h.service.signal(h.owner, id, 'SIGINT');
    });

    it('C30 cancelling a send delivers a real SIGINT: stdin_read with exit 130, session reusable', async () => {
      await open();
      const abort = new AbortController();
      const pending = h.service.send(h.owner, id, { input: 'sleep 300', signal: abort.signal });
      await until('sleep 300 in the foreground', () => firstSession(h).foregroundCommand?.startsWith('sleep 300'));
      abort.abort('tool call cancelled');
      const r = await pending;
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.exitCode, 130);
      assert.equal((await send('echo reusable')).output, 'reusable');
    });

    it('C31 closing a session ends every process group in it (nothing keeps the port)', async () => {
      await open();
      const port = 18766;
      const r = await send(`sh -c 'python3 -m http.server ${port} --bind 127.0.0.1 & wait'`, 2000);
      assert.notEqual(r.waitReason, 'session_exit');
      await waitForPort(port, true);
      assert.equal(await h.service.close(h.owner, id), true);
      assert.equal(h.service.list(h.owner).length, 0);
      await waitForPort(port, false);
    });

    it('C32 a command string as session id: a structured error listing the valid ids', async () => {
      await open();
      assert.throws(
        () => h.service.read(h.owner, 'npm test'),
        (e: Error & { code?: string }) => e.code === 'NO_SUCH_SESSION' && e.message.includes(id) && /not a command/.test(e.message),
      );
    });

    it('C33 node readline waits in epoll: stdin_read; the answer prints', async () => {
      await open();
      const r = await send(
        `node -e "require('readline').createInterface({input:process.stdin,output:process.stdout}).question('package name: ',a=>{console.log(a);process.exit(0)})"`,
      );
      assert.equal(r.waiting, 'program-input');
      assert.match(r.foreground?.command ?? '', /node/);
      const answer = await send('x');
      assert.equal(answer.waiting, 'shell-prompt');
      assert.match(answer.output, /^x$/m);
    });

    it('C34 printf without a newline: viewport exactly hello', async () => {
      await open();
      assert.equal((await send('printf hello')).output, 'hello');
    });

    it('a read at an idle prompt ends with the last output line, rendered and raw (the prompt is owed until text follows it)', async () => {
      await open();
      await send(`python3 -c "print('\\x1b[31mred\\x1b[0m plain')"`);
      assert.equal(h.service.read(h.owner, id, { count: 1 }).text, 'red plain');
      assert.equal(h.service.read(h.owner, id, { count: 1, raw: true }).text, '\x1b[31mred\x1b[0m plain');
      await send('seq 1 20');
      assert.equal(h.service.read(h.owner, id, { count: 1 }).text, '20');
      assert.equal(h.service.read(h.owner, id, { count: 3 }).text, '18\n19\n20');
      // Output and the shell's controls before its prompt in one chunk.
      await send('seq 1 20000');
      assert.equal(h.service.read(h.owner, id, { count: 1 }).text, '20000');
      assert.equal(h.service.read(h.owner, id, { offset: 200, count: 1 }).text, '19800');
    });

    it('C36 an rc that sleeps before exporting READY: open waits for the first prompt', async () => {
      const home = homeWithRc(h.tmp, 'sleep 2; export READY=1\n', shell);
      await open({ env: { HOME: home } });
      assert.equal((await send('echo $READY')).output, '1');
    });

    it('C37 the shell killed from outside: session_exit promptly with the signal', async () => {
      await open();
      const shellPid = Number((await send('echo $$')).output);
      const pending = send('sleep 100');
      await until('sleep 100 in the foreground', () => firstSession(h).foregroundCommand?.startsWith('sleep 100'));
      process.kill(shellPid, 'SIGKILL');
      const r = await pending;
      assert.equal(r.waitReason, 'session_exit');
      assert.deepEqual(r.sessionStatus, { kind: 'exited', exitCode: null, signal: 'SIGKILL' });
      assert.ok(r.durationMs < 10_000);
    });

    it('C38 a raw-mode program ends on SIGINT through the API', async () => {
      await open();
      const r = await send(`python3 -c "import tty,sys,time;tty.setraw(0);time.sleep(30)"`, 1500);
      assert.notEqual(r.waitReason, 'stdin_read');
      assert.equal(h.service.signal(h.owner, id, 'SIGINT').delivered, true);
      const back = await send('echo back');
      assert.equal(back.waiting, 'shell-prompt');
      assert.match(back.output, /back$/);
    });

    it('keeps the marker when the user replaces PS1 or PROMPT_COMMAND (zsh: precmd_functions)', async () => {
      await open();
      await send(`PS1='custom> '`);
      assert.equal((await send('echo one')).output, 'one');
      await send(shell === 'zsh' ? 'precmd_functions=()' : 'PROMPT_COMMAND=');
      const r = await send('echo two');
      assert.equal(r.waiting, 'shell-prompt');
      assert.equal(r.output, 'two');
    });

    it('a marker printed by a program with a wrong nonce does not fake readiness', async () => {
      await open();
      const r = await send(`printf '\\033]6973;0000000000000000;P;0;99\\007$ '; sleep 1; echo real`);
      assert.equal(r.waiting, 'shell-prompt');
      assert.ok(r.durationMs >= 900, `returned after ${r.durationMs} ms on a fake marker`);
      assert.match(r.output, /real$/);
    });

    it('removes TMUX and TMUX_PANE from a session and sets non-interactive defaults', async () => {
      process.env.TMUX = '/tmp/tmux-0/default,1,0';
      process.env.TMUX_PANE = '%9';
      try {
        await open();
        const r = await send('echo "[${TMUX-unset}] [${TMUX_PANE-unset}] $PAGER $GIT_PAGER $GIT_EDITOR"');
        assert.equal(r.output, '[unset] [unset] cat cat :');
      } finally {
        delete process.env.TMUX;
        delete process.env.TMUX_PANE;
      }
    });

    it('logs events only, never terminal content', async () => {
      await open();
      await send('echo SECRET-TOKEN-42');
      h.service.read(h.owner, id);
      assert.ok(h.log.lines.length > 0);
      assert.ok(
        h.log.lines.every((l) => !l.includes('SECRET-TOKEN-42')),
        h.log.lines.join('\n'),
      );
    });

    it('the probe is proven against the real kernel: this test process blocked reading a pty is seen', () => {
      // Sanity of the syscall table on this architecture: a shell read in a child is visible.
      const out = execFileSync('uname', ['-m'], { encoding: 'utf8' }).trim();
      assert.ok(['x86_64', 'aarch64'].includes(out), `probe syscall table has no entry for ${out}`);
    });
  });

  describe(`input the shell and programs can really take (found by a new-user test, pty-${shell})`, function () {
    this.timeout(60_000);
    let h: Harness;
    let id: string;
    const send = (input: string, timeoutMs?: number) => h.service.send(h.owner, id, { input, timeoutMs });
    beforeEach(async () => {
      h = harness({ quietThresholdMs: 5_000 }, {}, shell);
      id = (await h.service.open(h.owner)).sessionId;
    });
    afterEach(async () => h.dispose());

    it("the shell's own read builtin is a program waiting for input, not the shell prompt; the answer's output is kept", async () => {
      const r = await send(shell === 'zsh' ? 'read "x?Name: "; echo got=$x' : 'read -p "Name: " x; echo got=$x');
      assert.equal(r.waitReason, 'stdin_read');
      assert.equal(r.waiting, 'program-input');
      assert.equal(r.exitCode, undefined);
      assert.equal(r.output, 'Name: ');
      const answer = await send('Bob');
      assert.equal(answer.waiting, 'shell-prompt');
      assert.match(answer.output, /got=Bob$/);
    });

    it('read -s is flagged as a password prompt: the agent may not type into it, the person answers in a one-line take-over', async () => {
      const r = await send(
        shell === 'zsh' ? 'read -s "pw?Password: "; echo; echo len=${#pw}' : 'read -s -p "Password: " pw; echo; echo len=${#pw}',
      );
      assert.equal(r.waiting, 'program-input');
      assert.equal(r.echoOff, true);
      await assert.rejects(send('secret'), (e: Error & { code?: string }) => e.code === 'PERSON_MUST_ANSWER');
      assert.equal(h.service.takeOverLine(h.owner, id), true);
      h.service.writeUserInput(h.owner, id, 'secret\r');
      await until('the read to return', () => /len=6$/.test(h.service.read(h.owner, id).text));
    });

    it('a send while the shell still reads the previous input is refused, not typed ahead', async () => {
      const r = await send(`echo ${'a'.repeat(200_000)} | wc -c`, 200);
      assert.equal(r.waitReason, 'timeout');
      await assert.rejects(
        send('echo second'),
        (e: Error & { code?: string }) => e.code === 'SESSION_BUSY' && /not finished reading the previous input/.test(e.message),
      );
      assert.equal(firstSession(h).busy, true);
      await until('the shell to finish reading the input', () => !firstSession(h).busy);
      assert.equal((await send('echo third')).output, 'third');
      assert.match(h.service.read(h.owner, id, { raw: true }).text, /\n200001\n/);
    });

    it('a line longer than canonical mode keeps is refused with the limit, before anything is lost', async () => {
      const r = await send('python3 -c "s=input(); print(len(s))"');
      assert.equal(r.waiting, 'program-input');
      await assert.rejects(send('b'.repeat(10_000)), /10000 bytes.*at most 4095 bytes/);
      assert.equal((await send('b'.repeat(4000))).output.split('\n').at(-1), '4000');
    });

    it('input over 256 KiB is refused with the limit and what to do instead', async () => {
      await assert.rejects(send('a'.repeat(300_000)), /300000 .*at most 262144 bytes.*file/);
    });

    it('after exec, the foreground is named by what the shell became', async () => {
      const r = await send('exec cat');
      assert.equal(r.waiting, 'program-input');
      assert.equal(r.foreground?.command, 'cat');
    });
  });
}
