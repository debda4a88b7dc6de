import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { TOOL_REGISTRY } from '../../src/vscode/tools/registry';
import { contributedTools, TERMINAL_TOOLS, waitForTools } from '../helpers/host/lm';

describe('DSH Bridge installed from the VSIX', () => {
  it('runs from the extensions folder, not from the repository', () => {
    const ext = vscode.extensions.getExtension('dsh.dsh-bridge');
    assert.ok(ext, 'dsh.dsh-bridge is not installed in this extension host');
    const extensionsDir = process.env.DSH_EXTENSIONS_DIR;
    assert.ok(extensionsDir, 'DSH_EXTENSIONS_DIR is not set: the launcher passes it to the host');
    const rel = path.relative(extensionsDir, ext.extensionPath);
    assert.ok(!rel.startsWith('..') && !path.isAbsolute(rel), `${ext.extensionPath} is not under ${extensionsDir}`);
  });

  it('contributes the terminal tools to vscode.lm.tools', async () => {
    await waitForTools(TERMINAL_TOOLS);
  });

  it('the tool registry (Language Model Tools and every MCP connection) holds exactly the contributed tools, each once', () => {
    const registered = TOOL_REGISTRY.map((entry) => entry.declaration.name);
    assert.equal(new Set(registered).size, registered.length, `a tool is in the registry twice: ${registered.join(', ')}`);
    assert.deepEqual(
      [...registered].sort(),
      contributedTools()
        .map((t) => t.name)
        .sort(),
    );
  });
});
