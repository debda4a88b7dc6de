/**
 * Reads the agent sandbox settings for a new session: VS Code's own (`chat.agent.sandbox.*`,
 * `chat.agent.allowedNetworkDomains` / `deniedNetworkDomains`, read whether or not this VS Code
 * declares them) and `dsh.terminal.sandbox`, and hands them to the plain-Node policy
 * (src/terminal/sandbox/policy.ts). Read at each open, so a change applies to new sessions.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SETTING } from '../../common/ids';
import { SandboxPolicy, SandboxSettingValues, sandboxPolicy } from '../../terminal/sandbox/policy';

/** VS Code's agent sandbox settings (VS Code 1.116 and later). */
export const VSCODE_SANDBOX_SETTING = {
  enabled: 'chat.agent.sandbox.enabled',
  allowNetwork: 'chat.agent.sandbox.allowNetwork',
  allowedDomains: 'chat.agent.allowedNetworkDomains',
  deniedDomains: 'chat.agent.deniedNetworkDomains',
  fileSystemLinux: 'chat.agent.sandbox.fileSystem.linux',
  fileSystemMac: 'chat.agent.sandbox.fileSystem.mac',
  allowUnsandboxedCommands: 'chat.agent.sandbox.allowUnsandboxedCommands',
} as const;

/** The policy of a new agent session, from the settings in force now. */
export class SandboxSettings implements vscode.Disposable {
  private tempFolder: string | undefined;

  constructor(private readonly context: vscode.ExtensionContext) {}

  /** The policy a session opened now runs under. */
  policy(): SandboxPolicy {
    const config = vscode.workspace.getConfiguration();
    const enabled = config.inspect(VSCODE_SANDBOX_SETTING.enabled);
    const values: SandboxSettingValues = {
      dshMode: config.get(SETTING.terminalSandbox),
      vscodeEnabled: config.get(VSCODE_SANDBOX_SETTING.enabled),
      vscodeEnabledSource: settingSource(enabled, config.get(VSCODE_SANDBOX_SETTING.enabled)),
      allowNetwork: config.get(VSCODE_SANDBOX_SETTING.allowNetwork),
      allowedDomains: config.get(VSCODE_SANDBOX_SETTING.allowedDomains),
      deniedDomains: config.get(VSCODE_SANDBOX_SETTING.deniedDomains),
      fileSystem: config.get(process.platform === 'darwin' ? VSCODE_SANDBOX_SETTING.fileSystemMac : VSCODE_SANDBOX_SETTING.fileSystemLinux),
      allowUnsandboxedCommands: config.get(VSCODE_SANDBOX_SETTING.allowUnsandboxedCommands),
      allowUnsandboxedSource: settingSource(config.inspect(VSCODE_SANDBOX_SETTING.allowUnsandboxedCommands), config.get(VSCODE_SANDBOX_SETTING.allowUnsandboxedCommands)),
    };
    const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const storageFolder = this.context.storageUri?.scheme === 'file' ? this.context.storageUri.fsPath : undefined;
    if (storageFolder) fs.mkdirSync(storageFolder, { recursive: true });
    // The open .code-workspace file: its settings and tasks run programs outside the sandbox.
    const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
    return sandboxPolicy(values, { workspaceFolders, storageFolder, tempFolder: this.temp(), ...(workspaceFile ? { workspaceFile } : {}) });
  }

  /** The sandbox temp folder of this extension host (mode 0700), created on first use. */
  private temp(): string {
    if (this.tempFolder && fs.existsSync(this.tempFolder)) return this.tempFolder;
    this.tempFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bridge-sandbox-'));
    return this.tempFolder;
  }

  dispose(): void {
    if (this.tempFolder) fs.rmSync(this.tempFolder, { recursive: true, force: true });
  }
}

/**
 * Where a setting's value (`chat.agent.sandbox.enabled`, `allowUnsandboxedCommands`) comes from: `explicit` when a person set it (user, workspace
 * or folder settings), `policy` when VS Code reports a policy value or the value in force is none
 * of the layers the API shows (organisation policy is the layer it does not list), else `default`.
 */
function settingSource(inspect: ReturnType<vscode.WorkspaceConfiguration['inspect']>, value: unknown): SandboxSettingValues['vscodeEnabledSource'] {
  if (!inspect) return 'default';
  if ((inspect as { policyValue?: unknown }).policyValue !== undefined) return 'policy';
  const layers = [inspect.globalValue, inspect.workspaceValue, inspect.workspaceFolderValue];
  if (layers.some((v) => v !== undefined && v === value)) return 'explicit';
  return value !== undefined && value !== inspect.defaultValue ? 'policy' : 'default';
}
