/**
 * The terminal tools through `vscode.lm.invokeTool`, as an agent calls them, in a real extension
 * host running the installed VSIX: cases C01, C05, C08, C21, C22, C25, C32 of
 * the field's terminal failure cases, plus the result shapes the tools promise. The launcher runs
 * this file again in the agent sandbox (its `sandboxed` host run), where it must give the same results.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';

interface SendJson {
  sessionId: string;
  waitReason: string;
  waiting?: string;
  exitCode?: number;
  sessionStatus: { kind: string; exitCode?: number | null; signal?: string | null };
  foreground?: { pid: number; command: string };
  truncated: boolean;
}

describe('terminal tools through vscode.lm.invokeTool', function () {
  this.timeout(120_000);
  let sessionId: string;
  const send = (input: string, timeoutMs?: number) => invokeTool<SendJson>('dsh_terminal_send', { sessionId, input, timeoutMs });

  before(async () => {
    await waitForTools(TERMINAL_TOOLS);
  });

  beforeEach(async () => {
    const opened = await invokeTool<{ sessionId: string; sessionStatus: { kind: string }; cwd: string }>('dsh_terminal_open', {
      name: 'integration',
    });
    sessionId = opened.json.sessionId;
    assert.match(sessionId, /^pty-\d+$/);
    assert.deepEqual(opened.json.sessionStatus, { kind: 'running' });
    assert.equal(opened.json.cwd, vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, 'opens in the workspace folder');
  });

  afterEach(async () => {
    const listed = await invokeTool<{ sessions: { sessionId: string }[] }>('dsh_terminal_list', {});
    if (listed.json.sessions.some((s) => s.sessionId === sessionId)) {
      const closed = await invokeTool<{ closed: boolean }>('dsh_terminal_close', { sessionId });
      assert.equal(closed.json.closed, true);
    }
  });

  it('sessions run in the agent sandbox exactly in the sandboxed pass (dsh.terminal.sandbox "on" in the workspace settings)', async () => {
    const sandboxed = process.env.DSH_TEST_SUITE === 'sandboxed';
    const listed = await invokeTool<{ sessions: { sessionId: string; sandbox: { on: boolean; writableRoots: string[] } }[] }>(
      'dsh_terminal_list',
      {},
    );
    const sandbox = listed.json.sessions.find((s) => s.sessionId === sessionId)?.sandbox;
    assert.equal(sandbox?.on, sandboxed, JSON.stringify(sandbox));
    if (sandboxed) assert.ok(sandbox.writableRoots.includes(vscode.workspace.workspaceFolders![0]!.uri.fsPath), JSON.stringify(sandbox));
  });

  it('sessions run the shell the settings choose: zsh exactly in the zsh pass (dsh.terminal.shell "zsh" in the workspace settings), and say why', async () => {
    const zsh = process.env.DSH_TEST_SUITE === 'zsh';
    const listed = await invokeTool<{ sessions: { sessionId: string; shell?: string }[] }>('dsh_terminal_list', {});
    assert.equal(listed.json.sessions.find((s) => s.sessionId === sessionId)?.shell, zsh ? 'zsh' : 'bash');
    const r = await send('echo "${ZSH_VERSION:+zsh}${BASH_VERSION:+bash}"');
    assert.equal(r.text, zsh ? 'zsh' : 'bash');
    const other = await invokeTool<{ sessionId: string; shell: { name: string; why: string } }>('dsh_terminal_open', {
      name: 'other shell',
      shell: zsh ? 'bash' : 'zsh',
    });
    try {
      assert.equal(other.json.shell.name, zsh ? 'bash' : 'zsh');
      assert.match(other.json.shell.why, /asked for by this call/);
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId: other.json.sessionId });
    }
  });

  it('C01 echo hello: stdin_read at the prompt, output exactly hello as the second part', async () => {
    const r = await send('echo hello');
    assert.equal(r.json.waitReason, 'stdin_read');
    assert.equal(r.json.waiting, 'shell-prompt');
    assert.equal(r.json.exitCode, 0);
    assert.equal(r.json.truncated, false);
    assert.equal(r.text, 'hello');
  });

  it('C05 sleep 20; echo done with a 60 s timeout: returns only after the sleep', async () => {
    const t = Date.now();
    const r = await send('sleep 20; echo done', 60_000);
    assert.equal(r.json.waitReason, 'stdin_read');
    assert.equal(r.text, 'done');
    assert.ok(Date.now() - t >= 19_000);
  });

  it('C08 input(): program-input naming python3; the answer prints hi Bob and returns to the prompt', async () => {
    const r = await send(`python3 -c "n=input('Name: '); print('hi', n)"`);
    assert.equal(r.json.waitReason, 'stdin_read');
    assert.equal(r.json.waiting, 'program-input');
    assert.match(r.json.foreground?.command ?? '', /python3/);
    assert.match(r.text ?? '', /Name: $/);
    const answer = await send('Bob');
    assert.equal(answer.json.waiting, 'shell-prompt');
    assert.match(answer.text ?? '', /hi Bob/);
  });

  it('C21 set -u keeps the prompt; set -e then false ends the session with exit 1', async () => {
    await send('set -u');
    assert.equal((await send('echo ok')).text, 'ok');
    await send('set -e');
    const r = await send('false');
    assert.equal(r.json.waitReason, 'session_exit');
    assert.deepEqual(r.json.sessionStatus, { kind: 'exited', exitCode: 1, signal: null });
  });

  it('C22 exit 42: session_exit with 42, listed as exited, a new session opens', async () => {
    const r = await send('exit 42');
    assert.equal(r.json.waitReason, 'session_exit');
    assert.deepEqual(r.json.sessionStatus, { kind: 'exited', exitCode: 42, signal: null });
    const listed = await invokeTool<{ sessions: { sessionId: string; sessionStatus: { kind: string } }[] }>('dsh_terminal_list', {});
    assert.equal(listed.json.sessions.find((s) => s.sessionId === sessionId)?.sessionStatus.kind, 'exited');
    const again = await invokeTool<{ sessionId: string }>('dsh_terminal_open', {});
    assert.notEqual(again.json.sessionId, sessionId);
    await invokeTool('dsh_terminal_close', { sessionId: again.json.sessionId });
  });

  it('read pages count back from the newest line and agree with each other', async () => {
    await send('seq 1 20000');
    const page = await invokeTool<{ offset: number; lineBegin: number; lineEnd: number; totalLines: number; nextOffset?: number }>(
      'dsh_terminal_read',
      { sessionId, offset: 0, count: 200 },
    );
    const lines = (page.text ?? '').split('\n');
    assert.equal(lines.length, 200);
    assert.equal(lines.at(-1), '20000');
    assert.deepEqual([page.json.offset, page.json.lineBegin, page.json.lineEnd], [0, 0, 200]);
    assert.equal(page.json.nextOffset, 200);
    const older = await invokeTool('dsh_terminal_read', { sessionId, offset: 200, count: 1 });
    assert.equal(older.text, '19800');
  });

  it('C35 colours: the model reads `red plain`; raw: true keeps the escapes; neither shows our marker', async () => {
    const r = await send(`python3 -c "print('\\x1b[31mred\\x1b[0m plain')"`);
    assert.equal(r.text, 'red plain');
    const page = await invokeTool('dsh_terminal_read', { sessionId, count: 1 });
    assert.equal(page.text, 'red plain');
    const raw = await invokeTool('dsh_terminal_read', { sessionId, count: 1, raw: true });
    assert.equal(raw.text, '\x1b[31mred\x1b[0m plain');
    assert.doesNotMatch(`${page.text}${raw.text}`, /6973/);
  });

  it('the tool layer caps its text at 256 KiB even when dsh.terminal.maxReadBytes allows more', async () => {
    const config = vscode.workspace.getConfiguration('dsh.terminal');
    await config.update('maxReadBytes', 1024 * 1024, vscode.ConfigurationTarget.Global);
    // The host updates its configuration and fires the change event (on which the extension applies
    // the settings) in one step: once the new value reads back, the extension has it too.
    await until(
      'the new maxReadBytes in the host',
      () => vscode.workspace.getConfiguration('dsh.terminal').get('maxReadBytes') === 1024 * 1024,
    );
    try {
      const big = await invokeTool<{ sessionId: string }>('dsh_terminal_open', {});
      const r = await invokeTool<SendJson & { toolCapDroppedBytes?: number }>('dsh_terminal_send', {
        sessionId: big.json.sessionId,
        input: `python3 -c "print('y'*600000)"`,
      });
      assert.equal(r.json.truncated, true);
      assert.ok(Buffer.byteLength(r.text ?? '') <= 256 * 1024);
      assert.ok((r.json.toolCapDroppedBytes ?? 0) > 300_000, JSON.stringify(r.json));
      await invokeTool('dsh_terminal_close', { sessionId: big.json.sessionId });
    } finally {
      await config.update('maxReadBytes', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('C25 a send while a command runs is refused with a busy error naming it', async () => {
    const r = await send(`bash -c 'echo starting; sleep 120; echo finished'`, 1000);
    assert.equal(r.json.waitReason, 'timeout');
    await assert.rejects(send('ls'), /busy.*sleep 120/s);
  });

  it('dsh_terminal_signal interrupts the foreground command with a real SIGINT', async () => {
    const r = await send('sleep 300', 1000);
    assert.equal(r.json.waitReason, 'timeout');
    const sig = await invokeTool<{ delivered: boolean; foreground?: { command: string } }>('dsh_terminal_signal', {
      sessionId,
      signal: 'SIGINT',
    });
    assert.equal(sig.json.delivered, true);
    assert.equal(sig.json.foreground?.command, 'sleep 300');
    assert.equal((await send('echo $?')).text, '130');
    await assert.rejects(
      invokeTool('dsh_terminal_signal', { sessionId, signal: 'SIGSEGV' }),
      /`signal` is not valid \(got "SIGSEGV"\); valid: one of SIGINT/,
    );
  });

  it('background send: returns a job id at once; dsh_terminal_output hands out the output once, then the end', async () => {
    const started = await invokeTool<{ jobId: string }>('dsh_terminal_send', {
      sessionId,
      input: 'for i in 1 2 3; do echo bg$i; sleep 0.3; done',
      background: true,
    });
    assert.match(started.json.jobId, /^job-\d+$/);
    let text = '';
    const end = await until(
      'the background send to end',
      async () => {
        const out = await invokeTool<{ done: boolean; result?: { waitReason: string; waiting?: string; exitCode?: number } }>(
          'dsh_terminal_output',
          { sessionId, jobId: started.json.jobId },
        );
        text += out.text ?? '';
        return out.json.done && out.json;
      },
      20_000,
      200,
    );
    const seen = JSON.stringify(end.result);
    assert.equal(end.result?.waitReason, 'stdin_read', seen);
    assert.equal(end.result?.waiting, 'shell-prompt', seen);
    assert.equal(end.result?.exitCode, 0, seen);
    assert.deepEqual(
      text
        .replace(/\r/g, '')
        .split('\n')
        .filter((l) => /^bg\d$/.test(l)),
      ['bg1', 'bg2', 'bg3'],
    );
  });

  it('dsh_terminal_wait keeps waiting without typing: until a line, then to the prompt; refused at the prompt and with a bad pattern', async () => {
    assert.equal((await send('sleep 1; echo "ready on 3000"; sleep 1; echo bye', 300)).json.waitReason, 'timeout');
    const ready = await invokeTool<SendJson & { match?: string }>('dsh_terminal_wait', { sessionId, until: 'ready on \\d+' });
    assert.equal(ready.json.waitReason, 'output_match');
    assert.equal(ready.json.match, 'ready on 3000');
    const done = await invokeTool<SendJson>('dsh_terminal_wait', { sessionId, timeoutMs: 20_000 });
    assert.equal(done.json.waitReason, 'stdin_read');
    assert.equal(done.json.waiting, 'shell-prompt');
    assert.equal(done.json.exitCode, 0);
    assert.equal(done.text, 'bye');
    await assert.rejects(invokeTool('dsh_terminal_wait', { sessionId }), /nothing to wait for.*at its prompt/);
    assert.equal((await send('sleep 30', 300)).json.waitReason, 'timeout');
    await assert.rejects(invokeTool('dsh_terminal_wait', { sessionId, until: 'ready (on' }), /not a valid JavaScript regular expression/);
    await invokeTool('dsh_terminal_signal', { sessionId, signal: 'SIGINT' });
  });

  it('C32 a command string as session id: the error lists the valid ids', async () => {
    await assert.rejects(invokeTool('dsh_terminal_read', { sessionId: 'npm test' }), new RegExp(`not a command.*${sessionId}`, 's'));
  });

  it('a control character in text to type is refused with the way to press that key: keys in dsh_terminal_send, dsh_terminal_send in dsh_run', async () => {
    await assert.rejects(
      invokeTool('dsh_terminal_send', { sessionId, input: 'sleep 9\u0003' }),
      /`input` is not valid: U\+0003 at character 8 is a control character \(Ctrl-C\)\. To press keys, send them by name in `keys` instead of `input`, e\.g\. keys \["Ctrl-C"\]/,
    );
    await assert.rejects(
      invokeTool('dsh_run', { command: 'echo a\u001b' }),
      /`command` is not valid: U\+001B at character 7 is a control character \(Escape\)\. To press keys \(Ctrl-C, arrows, Ctrl-D\), use dsh_terminal_send with keys on the session id dsh_run returned/,
    );
  });
});
