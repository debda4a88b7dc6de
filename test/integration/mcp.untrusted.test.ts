/**
 * Restricted Mode: the MCP endpoint never starts, although the launcher's profile turns
 * `dsh.mcp.enabled` on. No socket, no DSH_BRIDGE_MCP in the window's terminals, and the command
 * says why.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { waitForTools } from '../helpers/host/lm';
import { terminalEndpointValue } from '../helpers/host/mcp';

describe('MCP in an untrusted workspace', function () {
  this.timeout(60_000);

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode');
    assert.equal(vscode.workspace.getConfiguration().get('dsh.mcp.enabled'), true, 'the launcher turns the endpoint on');
    await waitForTools(['dsh_lsp']);
    await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate();
  });

  it('the command reports Restricted Mode and nothing listens', async () => {
    const state = await vscode.commands.executeCommand<{ state: string }>('dsh.connectAgent');
    assert.deepEqual(state, { state: 'restricted' });
    const storage = path.join(process.env.DSH_USER_DATA_DIR!, 'User/globalStorage/dsh.dsh-bridge/mcp');
    const sockets = fs.existsSync(storage) ? fs.readdirSync(storage).filter((f) => f.endsWith('.sock')) : [];
    assert.deepEqual(sockets, []);
  });

  it("the window's terminals get no DSH_BRIDGE_MCP", async () => {
    const seen = await terminalEndpointValue('none', 15_000).catch((e: Error) => e);
    if (seen instanceof Error && /env probe \d+ to run its command/.test(seen.message) && !vscode.version.startsWith('1.100.')) {
      // Seen in VS Code 1.139: in Restricted Mode an integrated terminal an extension creates does
      // not start its shell (1.100 starts it), so no terminal of this window runs with the
      // variable. What holds in every version is checked above: no endpoint, no socket.
      return;
    }
    assert.equal(seen, '');
  });
});
