/**
 * Owners stay apart: another extension (the test-only api-consumer, a real second extension in
 * this host) reaches its own sessions through DSH Bridge's API and nothing of the agent tools',
 * by any route it can try; the scrollback views of the palette are not readable through a
 * guessable URI.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { consumer } from '../helpers/host/apiConsumer';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { runPickingFirst } from '../helpers/host/ui';

const idNumber = (id: string) => Number(id.replace(/^pty-/, ''));

async function toolSessions(): Promise<string[]> {
  return (await invokeTool<{ sessions: { sessionId: string }[] }>('dsh_terminal_list', {})).json.sessions.map((s) => s.sessionId);
}

describe('owners stay apart', function () {
  this.timeout(120_000);
  before(async () => waitForTools(['dsh_terminal_open', 'dsh_terminal_close']));

  it('another extension reaches none of the tools’ sessions or their owner: events, API properties, prototypes, errors, every id', async () => {
    const c = await consumer();
    c.subscribe();
    const tools = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'tools-private' })).json.sessionId;
    try {
      assert.equal(
        (await invokeTool('dsh_terminal_send', { sessionId: tools, input: 'echo tools-secret-$((6*7))' })).text,
        'tools-secret-42',
      );
      const mine = (await c.open('mine')).sessionId;
      assert.equal((await c.send(mine, 'echo mine-$((6*7))')).output, 'mine-42');
      assert.match((await c.read(mine)).text, /mine-42/);
      assert.deepEqual(
        c.list().map((s) => s.sessionId),
        [mine],
      );

      const found = await c.probe([tools], Math.max(idNumber(tools), idNumber(mine)) + 3, ['DSH Bridge tools', 'tools-secret-42']);
      assert.deepEqual(found, [], 'what the other extension reached');

      assert.equal(await c.close(mine), true);
      const events = c.events();
      assert.ok(
        events.some((e) => e.sessionId === mine && e.kind === 'opened'),
        `the consumer hears of its own session: ${JSON.stringify(events)}`,
      );
      assert.ok(events.some((e) => e.sessionId === mine && e.kind === 'closed'));
      for (const e of events) {
        assert.deepEqual(e.keys, ['kind', 'sessionId'], 'an event carries the id, not an owner');
        assert.equal(e.sessionId, mine, 'the consumer hears only of its own sessions');
      }
      // The tools' session is untouched: still theirs, nothing typed into it.
      assert.ok((await toolSessions()).includes(tools));
      assert.doesNotMatch((await invokeTool('dsh_terminal_read', { sessionId: tools, raw: true })).text ?? '', /hijacked-by-consumer/);
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId: tools });
    }
  });

  it('a scrollback view opens under a fresh random token; guessable URIs serve no scrollback', async () => {
    for (const id of await toolSessions()) await invokeTool('dsh_terminal_close', { sessionId: id });
    const { sessionId } = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', { name: 'scrollback' })).json;
    try {
      await invokeTool('dsh_terminal_send', { sessionId, input: 'echo scrollback-secret-$((6*7))' });
      const guesses = [
        `dsh-scrollback:/${sessionId}.log`,
        `dsh-scrollback:/pty-1.log`,
        `dsh-scrollback:///${sessionId}.log`,
        `dsh-scrollback://${'0'.repeat(32)}/${sessionId}.log`,
        `dsh-scrollback://${sessionId}/${sessionId}.log`,
      ];
      for (const guess of guesses) {
        const doc = await vscode.workspace.openTextDocument(vscode.Uri.parse(guess));
        assert.doesNotMatch(doc.getText(), /scrollback-secret-42|^# pty-\d+: lines/m, `${guess} served scrollback`);
      }
      // The person's own view, through "DSH: List Agent Terminals" (its quick pick accepted).
      await runPickingFirst('dsh.listAgentTerminals');
      const view = vscode.window.activeTextEditor?.document;
      assert.equal(view?.uri.scheme, 'dsh-scrollback');
      assert.match(view.uri.authority, /^[0-9a-f]{32}$/);
      assert.equal(view.uri.path, `/${sessionId}.log`);
      assert.match(view.getText(), /scrollback-secret-42/);
      // Its path with another token serves nothing.
      const other = view.uri.with({ authority: 'f'.repeat(32) });
      assert.doesNotMatch((await vscode.workspace.openTextDocument(other)).getText(), /scrollback-secret-42/);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId });
    }
  });
});
