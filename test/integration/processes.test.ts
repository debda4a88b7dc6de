/**
 * What an agent terminal started, in a real extension host running the installed VSIX: the ports
 * its processes listen on in dsh_terminal_list and send results, dsh_terminal_wait's
 * untilListening, and the processes that left the session (setsid, nohup and disown, a
 * double-forking daemon), ended by dsh_terminal_close and by the owner's cleanup (an extension's
 * owner disposed through the API), while a process with the same command started outside DSH
 * Bridge runs on. Linux (/proc) only.
 */
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { DshBridgeApi } from '../../src/extension';
import { TERMINAL_TOOLS, invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';
import { daemonCommand, processesRunning as running, strayProcesses } from '../helpers/processes';

interface Socket {
  protocol: string;
  address: string;
  port: number;
  pid: number;
  command: string;
}

(fs.existsSync('/proc/self/net/tcp') ? describe : describe.skip)('processes and ports of agent terminals', function () {
  this.timeout(120_000);
  const { strangers, leftovers } = strayProcesses(after);
  before(async () => {
    await waitForTools(TERMINAL_TOOLS);
  });

  it('ports: a server started with & is waited for with untilListening and listed with its port in dsh_terminal_list and send results', async () => {
    const { json: opened } = await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'ports' });
    const sessionId = opened.sessionId;
    try {
      await invokeTool('dsh_terminal_send', { sessionId, input: 'python3 -m http.server 0 --bind 127.0.0.1 >/dev/null 2>&1 &' });
      const waited = await invokeTool<{ waitReason: string; listened?: Socket }>('dsh_terminal_wait', {
        sessionId,
        untilListening: true,
        timeoutMs: 30_000,
      });
      assert.equal(waited.json.waitReason, 'port_listening', JSON.stringify(waited.json));
      const socket = waited.json.listened!;
      assert.equal(socket.address, '127.0.0.1');
      assert.match(socket.command, /http\.server/);
      const sent = await invokeTool<{ listening?: Socket[] }>('dsh_terminal_send', { sessionId, input: 'true' });
      assert.deepEqual(sent.json.listening, [socket]);
      const listed = await invokeTool<{
        sessions: { sessionId: string; listening: Socket[]; backgroundProcesses: { pid: number; command: string }[] }[];
      }>('dsh_terminal_list', {});
      const mine = listed.json.sessions.find((s) => s.sessionId === sessionId)!;
      assert.deepEqual(mine.listening, [socket]);
      assert.ok(
        mine.backgroundProcesses.some((p) => p.pid === socket.pid),
        JSON.stringify(mine.backgroundProcesses),
      );
    } finally {
      const closed = await invokeTool<{ closed: boolean; ended: { command: string }[] }>('dsh_terminal_close', { sessionId });
      assert.equal(closed.json.closed, true);
      // Named by its command line, or by its name where the line could no longer be read as it ended.
      assert.ok(
        closed.json.ended.some((p) => /http\.server|^python3/.test(p.command)),
        JSON.stringify(closed.json),
      );
    }
  });

  it('close and the owner’s cleanup end setsid, nohup and daemon processes of the session, never one started outside', async () => {
    const tag = `${Date.now() % 100000}`;
    const [a, b, c] = ['1', '2', '3'].map((n) => `sleep 4${n}${tag}`) as [string, string, string];
    leftovers.push(a, b, c);
    const stranger = spawn('sleep', [a.slice('sleep '.length)], { stdio: 'ignore' });
    strangers.push(stranger);

    // Through the tools: dsh_terminal_close.
    const { json: opened } = await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'leavers' });
    const sessionId = opened.sessionId;
    await invokeTool('dsh_terminal_send', { sessionId, input: `setsid ${a} & nohup ${b} >/dev/null 2>&1 & disown -a` });
    await invokeTool('dsh_terminal_send', { sessionId, input: daemonCommand(c.slice('sleep '.length)) });
    await until('the three', () => running(a).length === 2 && running(b).length === 1 && running(c).length === 1);
    const closed = await invokeTool<{ closed: boolean; ended: { command: string; detached?: boolean }[] }>('dsh_terminal_close', {
      sessionId,
    });
    assert.equal(closed.json.closed, true);
    for (const command of [a, b, c])
      assert.ok(
        closed.json.ended.some((p) => p.command === command),
        `${command} ended: ${JSON.stringify(closed.json.ended)}`,
      );
    assert.deepEqual(running(a), [stranger.pid]);
    assert.deepEqual(running(b), []);
    assert.deepEqual(running(c), []);

    // Through the API: an extension's owner disposed (what deactivation and a window closing do to every owner).
    const api = await vscode.extensions.getExtension<DshBridgeApi>('dsh.dsh-bridge')!.activate();
    const owner = api.terminal.createOwner('processes test');
    const session = await api.terminal.open(owner, {});
    await api.terminal.send(owner, session.sessionId, { input: `setsid ${a} & nohup ${b} >/dev/null 2>&1 & disown -a` });
    await api.terminal.send(owner, session.sessionId, { input: daemonCommand(c.slice('sleep '.length)) });
    await until('the three again', () => running(a).length === 2 && running(b).length === 1 && running(c).length === 1);
    owner.dispose();
    await until('the owner’s processes gone', () => running(b).length === 0 && running(c).length === 0 && running(a).length === 1, 10_000);
    assert.deepEqual(running(a), [stranger.pid], 'the process started outside survives');
  });
});
