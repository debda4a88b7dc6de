// Workspace settings for tests that run in the extension host: through VS Code's configuration API
// where it accepts the key, else (a key this VS Code does not register, which it refuses to write)
// by writing the workspace's .vscode/settings.json and waiting until the configuration shows it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { until } from '../wait';

/** The first workspace folder's path. */
export const workspaceFolder = (): string => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

/** Sets `key` to `value` in the workspace's settings (undefined removes it) and resolves once the configuration reads it back. */
export async function setWorkspaceSetting(key: string, value: unknown): Promise<void> {
  try {
    await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Workspace);
    return;
  } catch {
    // not a registered configuration here: written to the file below
  }
  const file = path.join(workspaceFolder(), '.vscode', 'settings.json');
  const current = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8') || '{}') as Record<string, unknown>) : {};
  if (value === undefined) delete current[key];
  else current[key] = value;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(current, null, 2));
  await until(`the configuration reads ${key} back`, () => {
    try {
      assert.deepEqual(vscode.workspace.getConfiguration().inspect(key)?.workspaceValue, value);
      return true;
    } catch {
      return false;
    }
  });
}

/** Removes the workspace's .vscode folder (the fixture workspace has none of its own). */
export function removeWorkspaceSettings(): void {
  fs.rmSync(path.join(workspaceFolder(), '.vscode'), { recursive: true, force: true });
}
