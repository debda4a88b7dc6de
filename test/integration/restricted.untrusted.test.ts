/**
 * Restricted Mode (the launcher opens the workspace untrusted for `*.untrusted.test.ts`): the
 * terminal tools refuse, saying why and how to trust the workspace; navigation still answers.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from './lm';

describe('in an untrusted workspace', function () {
  this.timeout(60_000);

  before(async () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode');
    await waitForTools(['dsh_terminal_open', 'dsh_run', 'dsh_lsp']);
  });

  for (const [tool, input] of [
    ['dsh_terminal_open', {}],
    ['dsh_run', { command: 'echo hi' }],
    ['dsh_terminal_send', { sessionId: 'pty-1', input: 'echo hi' }],
  ] as const) {
    it(`${tool} refuses with the reason and how to trust the workspace`, async () => {
      await assert.rejects(invokeTool(tool, input), /not trusted \(Restricted Mode\).*Manage Workspace Trust/s);
    });
  }

  it('the refused calls started nothing: no agent terminal in the panel, the palette command refuses too', async () => {
    assert.ok(!vscode.window.terminals.some((t) => t.name.startsWith('DSH pty-')));
    await vscode.commands.executeCommand('dsh.openAgentTerminal');
    assert.ok(!vscode.window.terminals.some((t) => t.name.startsWith('DSH pty-')));
  });

  it('dsh_lsp still answers: a wiki-link definition in the vault', async () => {
    const r = await invokeTool<{ locations: { path: string; line: number }[] }>('dsh_lsp', {
      operation: 'goToDefinition',
      filePath: 'vault/one note.md',
      line: 3,
      column: 17,
    });
    assert.deepEqual(r.json.locations.map((l) => `${l.path}:${l.line}`), ['vault/another note.md:1']);
  });

  it('dsh.lsp.servers starts no language server: .sh stays with the vscode provider and dsh_lsp does not use it', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const log = path.join(root, '../../../dist/untrusted-fake-lsp.log');
    const servers = [{ id: 'untrusted-sh', command: process.execPath, args: [path.join(root, '../../fixtures/lsp-servers/fake-lsp.js'), '--log', log], extensions: { '.sh': 'shellscript' } }];
    fs.rmSync(log, { force: true });
    await vscode.workspace.getConfiguration().update('dsh.lsp.servers', servers, vscode.ConfigurationTarget.Global);
    try {
      await new Promise((r) => setTimeout(r, 500));
      const api = vscode.extensions.getExtension('dsh.dsh-bridge')!.exports as { navigation: { providerFor(uri: string): { providerId: string } | undefined } };
      assert.notEqual(api.navigation.providerFor(vscode.Uri.file(path.join(root, 'sh/main.sh')).toString())?.providerId, 'untrusted-sh');
      await invokeTool('dsh_lsp', { operation: 'hover', filePath: 'sh/main.sh', line: 5, column: 1 }).catch(() => undefined);
      assert.equal(fs.existsSync(log), false, 'the configured server never started');
    } finally {
      await vscode.workspace.getConfiguration().update('dsh.lsp.servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
