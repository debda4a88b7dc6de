/**
 * Restricted Mode (the launcher opens the workspace untrusted for `*.untrusted.test.ts`): the
 * terminal tools refuse, saying why and how to trust the workspace; navigation still answers, but
 * reads nothing outside the workspace (no question is asked: the call is refused).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LspService } from '../../src/lsp/service';
import { LspTool } from '../../src/vscode/tools/navigation/lspTool';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { until } from '../helpers/wait';

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
    assert.deepEqual(
      r.json.locations.map((l) => `${l.path}:${l.line}`),
      ['vault/another note.md:1'],
    );
  });

  it('dsh.lsp.servers starts no language server: .sh stays with the vscode provider and dsh_lsp does not use it', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const log = path.join(root, '../../../dist/untrusted-fake-lsp.log');
    const servers = [
      {
        id: 'untrusted-sh',
        command: process.execPath,
        args: [path.join(root, '../../fixtures/lsp-servers/fake-lsp.js'), '--log', log],
        extensions: { '.sh': 'shellscript' },
      },
    ];
    fs.rmSync(log, { force: true });
    await vscode.workspace.getConfiguration().update('dsh.lsp.servers', servers, vscode.ConfigurationTarget.Global);
    try {
      // The host updates its configuration and fires the change event (on which the extension
      // reloads its servers) in one step: once the value reads back, the extension has seen it.
      await until(
        'the new dsh.lsp.servers in the host',
        () => vscode.workspace.getConfiguration().get<unknown[]>('dsh.lsp.servers')?.length === 1,
      );
      const api = vscode.extensions.getExtension('dsh.dsh-bridge')!.exports as {
        navigation: { providerFor(uri: string): { providerId: string } | undefined };
      };
      assert.notEqual(api.navigation.providerFor(vscode.Uri.file(path.join(root, 'sh/main.sh')).toString())?.providerId, 'untrusted-sh');
      await invokeTool('dsh_lsp', { operation: 'hover', filePath: 'sh/main.sh', line: 5, column: 1 }).catch(() => undefined);
      assert.equal(fs.existsSync(log), false, 'the configured server never started');
    } finally {
      await vscode.workspace.getConfiguration().update('dsh.lsp.servers', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe('navigation reads nothing outside the workspace', () => {
    let tmp: string;
    let outside: string;
    let secret: string;
    const rel = (name: string) =>
      path.relative(vscode.workspace.workspaceFolders![0]!.uri.fsPath, path.join(tmp, name)).split(path.sep).join('/');
    before(() => {
      const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
      tmp = fs.mkdtempSync(path.join(root, 'dsh-untrusted-reads-'));
      outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-untrusted-out-')));
      secret = path.join(outside, 'secret.ts');
      fs.writeFileSync(secret, 'export const secretValue = 42;\n');
      fs.symlinkSync(secret, path.join(tmp, 'linked.ts'));
      fs.symlinkSync('/proc/self/environ', path.join(tmp, 'env.ts'));
      fs.writeFileSync(path.join(tmp, 'probe.dshu'), 'probe\n');
    });
    after(() => {
      fs.rmSync(tmp, { recursive: true, force: true });
      fs.rmSync(outside, { recursive: true, force: true });
    });

    it('an absolute path outside the workspace: prepareInvocation asks nothing and says it will be refused; invoke refuses', async () => {
      const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as { navigation: LspService };
      const tool = new LspTool(api.navigation);
      const input = { operation: 'hover' as const, filePath: secret, line: 1, column: 14 };
      const prepared = await tool.prepareInvocation({ input }, new vscode.CancellationTokenSource().token);
      assert.equal(prepared.confirmationMessages, undefined);
      assert.match(
        typeof prepared.invocationMessage === 'string' ? prepared.invocationMessage : (prepared.invocationMessage?.value ?? ''),
        /outside the workspace: refused in Restricted Mode/,
      );
      await assert.rejects(
        invokeTool('dsh_lsp', input),
        /secret\.ts is outside the workspace .*In Restricted Mode dsh_lsp reads only files inside the workspace folders.*Manage Workspace Trust/s,
      );
    });

    it('a workspace symlink leading outside is refused, naming the link; /proc/self/environ too', async () => {
      await assert.rejects(
        invokeTool('dsh_lsp', { operation: 'hover', filePath: rel('linked.ts'), line: 1, column: 14 }),
        /secret\.ts \(reached through .*linked\.ts\) is outside the workspace/,
      );
      await assert.rejects(invokeTool('dsh_lsp', { operation: 'hover', filePath: rel('env.ts'), line: 1, column: 1 }), /under \/proc/);
    });

    it('result locations outside the workspace are left out, also through a link, and counted', async () => {
      const api = (await vscode.extensions.getExtension('dsh.dsh-bridge')!.activate()) as {
        navigation: { registerProvider(p: unknown): vscode.Disposable };
      };
      const reg = api.navigation.registerProvider({
        id: 'test-untrusted-reads',
        extensions: { '.dshu': 'plaintext' },
        query: async (req: { operation: string; uri: string; workspaceUri: string }) =>
          req.operation === 'hover'
            ? { kind: 'hover', contents: null }
            : {
                kind: 'locations',
                locations: [secret, path.join(tmp, 'linked.ts'), path.join(tmp, 'probe.dshu')].map((f) => ({
                  uri: vscode.Uri.file(f).toString(),
                  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
                })),
                resolvedWorkspaceUri: req.workspaceUri,
              },
      });
      try {
        const r = await invokeTool<{ locations: { path: string; preview: string }[]; outsideWorkspace?: { leftOut: number; why: string } }>(
          'dsh_lsp',
          {
            operation: 'goToDefinition',
            filePath: rel('probe.dshu'),
            line: 1,
            column: 1,
          },
        );
        assert.deepEqual(
          r.json.locations.map((l) => [l.path, l.preview]),
          [[rel('probe.dshu'), 'probe']],
        );
        assert.equal(r.json.outsideWorkspace?.leftOut, 2);
        assert.match(r.json.outsideWorkspace?.why ?? '', /in Restricted Mode dsh_lsp shows nothing from outside the workspace/);
      } finally {
        reg.dispose();
      }
    });
  });
});
