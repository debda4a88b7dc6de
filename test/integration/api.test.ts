/**
 * dsh_run and the API object other extensions get from `activate()`: their sessions and the
 * tools' sessions are invisible and untouchable to each other.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DshBridgeApi } from '../../src/extension';
import { consumer as apiConsumer } from '../helpers/host/apiConsumer';
import { invokeTool, waitForTools } from '../helpers/host/lm';

interface RunJson {
  sessionId: string;
  waitReason: string;
  waiting?: string;
  exitCode?: number;
  sessionStatus: { kind: string; exitCode?: number | null };
}

describe('dsh_run and the extension API', function () {
  this.timeout(60_000);

  before(async () => {
    await waitForTools(['dsh_run']);
  });

  it('dsh_run keeps one session between calls and reopens it after the shell exits', async () => {
    const first = await invokeTool<RunJson>('dsh_run', { command: 'cd /tmp && export DSH_X=kept' });
    assert.equal(first.json.waiting, 'shell-prompt');
    const second = await invokeTool<RunJson>('dsh_run', { command: 'echo "$(pwd) $DSH_X"' });
    assert.equal(second.json.sessionId, first.json.sessionId);
    assert.equal(second.text, '/tmp kept');
    const exit = await invokeTool<RunJson>('dsh_run', { command: 'exit 3' });
    assert.equal(exit.json.waitReason, 'session_exit');
    assert.equal(exit.json.sessionStatus.exitCode, 3);
    const again = await invokeTool<RunJson>('dsh_run', { command: 'echo fresh' });
    assert.notEqual(again.json.sessionId, first.json.sessionId);
    assert.equal(again.text, 'fresh');
    await invokeTool('dsh_terminal_close', { sessionId: again.json.sessionId });
  });

  it('a second extension opens sessions under its own owner; neither side can touch the other’s', async () => {
    const consumer = await apiConsumer();
    const theirs = await consumer.open('theirs');
    try {
      assert.equal((await consumer.send(theirs.sessionId, 'echo from-api')).output, 'from-api');
      const listed = await invokeTool<{ sessions: { sessionId: string }[] }>('dsh_terminal_list', {});
      assert.ok(!listed.json.sessions.some((s) => s.sessionId === theirs.sessionId), 'the tools see a foreign session');
      await assert.rejects(
        invokeTool('dsh_terminal_send', { sessionId: theirs.sessionId, input: 'echo hijack' }),
        /belongs to another owner/,
      );
      assert.doesNotMatch((await consumer.read(theirs.sessionId)).text, /hijack/);

      const ours = await invokeTool<{ sessionId: string }>('dsh_terminal_open', {});
      await assert.rejects(consumer.read(ours.json.sessionId), /belongs to another owner/);
      assert.ok(!consumer.list().some((s) => s.sessionId === ours.json.sessionId));
      await invokeTool('dsh_terminal_close', { sessionId: ours.json.sessionId });
    } finally {
      await consumer.close(theirs.sessionId);
    }
  });

  it('the API object exposes the terminal and navigation services', async () => {
    const api = await vscode.extensions.getExtension<DshBridgeApi>('dsh.dsh-bridge')!.activate();
    assert.equal(api.apiVersion, 1);
    assert.equal(typeof api.terminal.createOwner, 'function');
    assert.equal(typeof api.navigation.registerProvider, 'function');
  });
});
