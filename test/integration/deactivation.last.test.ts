/**
 * Deactivation ends what agent terminals started, in a real extension host running the installed
 * VSIX: processes that left their sessions (setsid, nohup and disown, a double-forking daemon) of a
 * tool session and of an extension's session are gone after the extension's `deactivate` (what
 * VS Code runs when the window closes, reloads or the extension is disabled), while a process with
 * the same command started outside DSH Bridge runs on. It deactivates DSH Bridge for the rest of
 * the host run, so the runner runs it last (`.last.test.ts`, test/integration/index.ts). Linux
 * (/proc) only.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { DshBridgeApi } from '../../src/extension';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';
import { daemonCommand, processesRunning as running, strayProcesses } from '../helpers/processes';

(fs.existsSync('/proc/self/net/tcp') ? describe : describe.skip)('deactivation of DSH Bridge', function () {
  this.timeout(120_000);
  const { strangers, leftovers } = strayProcesses(after);
  before(async () => {
    await waitForTools(TERMINAL_TOOLS);
  });

  it('ends the setsid, nohup and daemon processes of every session, never one started outside', async () => {
    const tag = `${Date.now() % 100000}`;
    const [a, b, c, d] = ['1', '2', '3', '4'].map((n) => `sleep 5${n}${tag}`) as [string, string, string, string];
    leftovers.push(a, b, c, d);
    const stranger = spawn('sleep', [a.slice('sleep '.length)], { stdio: 'ignore' });
    strangers.push(stranger);

    const { json: opened } = await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'deactivation' });
    await invokeTool('dsh_terminal_send', { sessionId: opened.sessionId, input: `setsid ${a} & nohup ${b} >/dev/null 2>&1 & disown -a` });
    await invokeTool('dsh_terminal_send', { sessionId: opened.sessionId, input: daemonCommand(c.slice('sleep '.length)) });
    const extension = vscode.extensions.getExtension<DshBridgeApi>('dsh.dsh-bridge')!;
    const api = await extension.activate();
    const owner = api.terminal.createOwner('deactivation test');
    const session = await api.terminal.open(owner, {});
    await api.terminal.send(owner, session.sessionId, { input: `setsid ${d} & (nohup ${d} >/dev/null 2>&1 &)` });
    await until(
      'every process started',
      () => running(a).length === 2 && running(b).length === 1 && running(c).length === 1 && running(d).length === 2,
      20_000,
    );

    // The module the host loaded (one module per file in a process): its deactivate is what VS Code calls.
    const main = createRequire(__filename)(path.join(extension.extensionPath, 'dist', 'extension.js')) as { deactivate(): Promise<void> };
    await main.deactivate();
    assert.deepEqual(running(a), [stranger.pid], 'the process started outside survives');
    assert.deepEqual(running(b), []);
    assert.deepEqual(running(c), []);
    assert.deepEqual(running(d), []);
  });
});
