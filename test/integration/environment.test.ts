/**
 * Environment and settings: a session does not inherit the extension host's private variables,
 * and "DSH: Show Effective Configuration" shows the names of dsh.terminal.env, never its values.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';

/** The host-private names VS Code's own terminal removes (see src/terminal/session/sessionEnv.ts). */
const PRIVATE = /^(ELECTRON_.+|VSCODE_(?!(PORTABLE|SHELL_LOGIN|ENV_REPLACE|ENV_APPEND|ENV_PREPEND)).+|SNAP(|_.*)|GDK_PIXBUF_.+)$/;

describe('environment and settings', function () {
  this.timeout(60_000);
  before(async () => waitForTools(['dsh_terminal_open']));

  it('a session inherits none of the extension host’s private variables', async () => {
    const hostPrivate = Object.keys(process.env).filter((n) => PRIVATE.test(n));
    assert.ok(hostPrivate.length > 0, 'this extension host has no private variables to leave out');
    const { sessionId } = (await invokeTool<{ sessionId: string }>('dsh_terminal_open', {})).json;
    try {
      const out = (await invokeTool('dsh_terminal_send', { sessionId, input: 'env | cut -d= -f1 | sort' })).text ?? '';
      const names = out.split(/\r?\n/);
      assert.ok(names.includes('HOME') && names.includes('DSH_BRIDGE_SESSION'), `env printed: ${names.join(' ')}`);
      assert.deepEqual(
        names.filter((n) => PRIVATE.test(n)),
        [],
        `the host has ${hostPrivate.join(', ')}`,
      );
    } finally {
      await invokeTool('dsh_terminal_close', { sessionId });
    }
  });

  it('"DSH: Show Effective Configuration" shows the names of dsh.terminal.env, not their values', async () => {
    const config = vscode.workspace.getConfiguration();
    const secret = 'sekrit-token-value-4711';
    await config.update('dsh.terminal.env', { DSH_TEST_TOKEN: secret, PAGER: null }, vscode.ConfigurationTarget.Global);
    try {
      const c = await vscode.commands.executeCommand<{ settings: Record<string, { value: unknown }> }>('dsh.showEffectiveConfiguration');
      assert.deepEqual(c.settings['dsh.terminal.env']?.value, { DSH_TEST_TOKEN: '(value hidden)', PAGER: null });
      assert.ok(!JSON.stringify(c).includes(secret), 'the returned configuration holds the value');
      const view = vscode.workspace.textDocuments.find(
        (d) => d.uri.scheme === 'dsh-view' && d.uri.path === '/effective-configuration.jsonc',
      );
      assert.ok(view, 'the view document is open');
      assert.match(view.getText(), /DSH_TEST_TOKEN/);
      assert.ok(!view.getText().includes(secret), 'the view shows the value');
    } finally {
      await config.update('dsh.terminal.env', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
