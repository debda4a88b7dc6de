/**
 * Tool input validated as declared in the real extension host: through `vscode.lm.invokeTool`, an
 * unknown key and a null input get the one error shape (src/tools/inputError.ts), and nothing runs.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';

/** The message `vscode.lm.invokeTool(name, {input})` rejects with. */
async function refusal(name: string, input: unknown): Promise<string> {
  try {
    await vscode.lm.invokeTool(name, { input: input as object, toolInvocationToken: undefined });
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return assert.fail(`${name} accepted ${JSON.stringify(input)}`);
}

describe('tool input as declared (vscode.lm.invokeTool)', () => {
  before(async () => {
    await waitForTools(['dsh_terminal_send', 'dsh_terminal_open', 'dsh_terminal_list', 'dsh_symbols']);
  });

  it('an unknown key is refused with the error shape and a did-you-mean; nothing is opened', async () => {
    const before = (await invokeTool<{ sessions: unknown[] }>('dsh_terminal_list', {})).json.sessions.length;
    const message = await refusal('dsh_terminal_open', { name: 'typo', timeout: 5000 });
    assert.match(
      message,
      /dsh_terminal_open: `timeout` is not one of dsh_terminal_open's inputs \(got 5000\); valid: name, shell, cwd, sandbox\./,
    );
    assert.match(
      await refusal('dsh_terminal_send', { sessionId: 'pty-1', input: 'make', timeout: 5000 }),
      /dsh_terminal_send: `timeout` is not one of dsh_terminal_send's inputs \(got 5000\); valid: sessionId, input, keys, timeoutMs, background\. Did you mean `timeoutMs`\?/,
    );
    assert.equal(
      (await invokeTool<{ sessions: unknown[] }>('dsh_terminal_list', {})).json.sessions.length,
      before,
      'no session was opened',
    );
  });

  it('a null input is refused with the error shape, not a TypeError', async () => {
    for (const name of ['dsh_terminal_open', 'dsh_terminal_list', 'dsh_symbols']) {
      const message = await refusal(name, null);
      assert.match(message, new RegExp(`${name}: the input is not an object \\(got null\\); valid: `), message);
      assert.doesNotMatch(message, /Cannot (destructure|read properties)/);
    }
  });
});
