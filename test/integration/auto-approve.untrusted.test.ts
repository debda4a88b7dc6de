/**
 * Restricted Mode (the launcher opens the workspace untrusted for `*.untrusted.test.ts`): as VS Code
 * does for its restricted terminal settings, no workspace-scoped auto-approve setting is honoured:
 * a workspace could otherwise approve its own commands. The person's user settings are.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { AUTO_APPROVE_SETTING, readAutoApproveSettings } from '../../src/vscode/terminal/autoApproveSettings';
import { removeWorkspaceSettings, setWorkspaceSetting } from '../helpers/host/workspaceSettings';

describe('terminal auto-approve settings in an untrusted workspace', function () {
  this.timeout(60_000);
  const config = () => vscode.workspace.getConfiguration();
  /** Whether this VS Code registers the settings (1.139 does; 1.100 refuses to write user values of unknown keys). */
  const registered = () => config().inspect(AUTO_APPROVE_SETTING.rules)?.defaultValue !== undefined;

  before(() => assert.equal(vscode.workspace.isTrusted, false, 'the launcher should open this run in Restricted Mode'));
  after(async () => {
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.rules, undefined);
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.enable, undefined);
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.fileWrites, undefined);
    if (registered()) await config().update(AUTO_APPROVE_SETTING.rules, undefined, vscode.ConfigurationTarget.Global);
    removeWorkspaceSettings();
  });

  it('workspace rules and switches are ignored; user rules are read', async () => {
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.rules, { 'workspace-says-yes': true, '/.*/': true });
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.enable, true);
    await setWorkspaceSetting(AUTO_APPROVE_SETTING.fileWrites, 'never');
    if (registered()) await config().update(AUTO_APPROVE_SETTING.rules, { 'user-says-yes': true }, vscode.ConfigurationTarget.Global);
    // The workspace's settings file holds the values (1.139 itself hides a restricted setting's
    // workspace value in Restricted Mode; 1.100, which does not register these, shows it to inspect).
    const written = JSON.parse(
      fs.readFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json'), 'utf8'),
    ) as Record<string, unknown>;
    assert.deepEqual(written[AUTO_APPROVE_SETTING.rules], { 'workspace-says-yes': true, '/.*/': true });
    const settings = readAutoApproveSettings();
    const keys = settings.rules.map((r) => r.key);
    assert.ok(!keys.includes('workspace-says-yes') && !keys.includes('/.*/'), JSON.stringify(keys));
    assert.equal(settings.blockFileWrites, 'outsideWorkspace');
    if (registered()) {
      assert.ok(keys.includes('user-says-yes'), JSON.stringify(keys));
      assert.equal(settings.enabled, true, "VS Code's default");
    } else {
      // 1.100: the workspace's `enableAutoApprove: true` is not read; nothing registers a default.
      assert.equal(settings.enabled, false);
    }
  });
});
