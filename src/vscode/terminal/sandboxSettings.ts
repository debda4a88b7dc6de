/**
 * Reads the agent sandbox settings: VS Code's own (`chat.agent.sandbox.*`,
 * `chat.agent.allowedNetworkDomains` / `deniedNetworkDomains`, read whether or not this VS Code
 * declares them; where the person has not set one, its older names that VS Code still honours:
 * `chat.agent.sandbox`, `chat.agent.sandboxFileSystem.*`, `chat.agent.sandbox.allowedNetworkDomains`,
 * `chat.agent.sandboxNetwork.*`, VS Code 1.109's `chat.tools.terminal.sandbox.*`; which key decides
 * is src/terminal/sandbox/settingKeys.ts) and `dsh.terminal.sandbox`, with the workspace folders,
 * and hands them to the
 * plain-Node policy (src/terminal/sandbox/policy.ts) through a SandboxPolicySource, which computes
 * the policy once and again only after VS Code says the settings or the workspace folders changed.
 *
 * Why a change is seen by the next use, never a stale policy: the extension host applies a change
 * of the configuration and fires `onDidChangeConfiguration` in one synchronous call
 * (ExtHostConfigProvider.$acceptConfigurationChanged replaces its configuration model, then fires
 * the event; VS Code's emitters call their listeners synchronously), and this file's listener only
 * forgets the policy, on every change (no section filter: a change of any key, current or older,
 * is seen). So once that call returns, every use computes from the new settings: the next
 * send to a session outside the sandbox is refused as soon as the person turned the sandbox on. Only
 * a listener of the same event that runs before this one (registered earlier, by another extension)
 * could still read the old policy, within the event; a send it started that way is checked again by
 * the session right before it types, after an await (ptySession.ts send), which resumes only after
 * the event's listeners all ran. The configuration event covers every layer a setting comes from:
 * user, workspace and folder settings, organisation policy, defaults another extension registers,
 * and restricted settings when the workspace becomes trusted (VS Code fires it for each). The
 * workspace folders arrive in their own message and event (`onDidChangeWorkspaceFolders`). The
 * open `.code-workspace` file and the storage folder change only when the window enters another
 * workspace, and VS Code stops the extension host first (WorkspaceEditingService.enterWorkspace).
 */
import * as vscode from 'vscode';
import { SandboxPolicy } from '../../terminal/sandbox/policy';
import { ReadSetting, sandboxSettingValues } from '../../terminal/sandbox/settingKeys';
import { SandboxHostState, SandboxPolicySource, SandboxPolicyUse } from '../../terminal/sandbox/policySource';

/** The agent sandbox policy in force, from the settings and folders; computed once per change. */
export class SandboxSettings implements vscode.Disposable {
  private readonly source: SandboxPolicySource;

  /** Starts listening to configuration and workspace folder changes: make it before any session opens. */
  constructor(private readonly context: vscode.ExtensionContext) {
    this.source = new SandboxPolicySource(
      () => this.read(),
      [
        (listener) => vscode.workspace.onDidChangeConfiguration(listener),
        (listener) => vscode.workspace.onDidChangeWorkspaceFolders(listener),
      ],
    );
  }

  /**
   * The policy in force now (see SandboxPolicyUse): `spawn` for a session that opens now (its
   * folders made sure to exist), `check` for everything else (no settings or file system read
   * unless a change event came since the last computation).
   * @throws the file system's error when the sandbox temp or storage folder cannot be made.
   */
  policy(use: SandboxPolicyUse = 'check'): SandboxPolicy {
    return this.source.policy(use);
  }

  /** The settings and folders in force now; read only when the policy is computed. */
  private read(): SandboxHostState {
    const config = vscode.workspace.getConfiguration();
    const read: ReadSetting = (key) => {
      const layers = config.inspect(key);
      if (!layers) return { value: config.get(key) };
      const { defaultValue, globalValue, workspaceValue, workspaceFolderValue } = layers;
      return {
        value: config.get(key),
        defaultValue,
        globalValue,
        workspaceValue,
        workspaceFolderValue,
        policyValue: (layers as { policyValue?: unknown }).policyValue,
      };
    };
    const values = sandboxSettingValues(read, process.platform);
    const workspaceFolders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    const storageFolder = this.context.storageUri?.scheme === 'file' ? this.context.storageUri.fsPath : undefined;
    // The open .code-workspace file: its settings and tasks run programs outside the sandbox.
    const workspaceFile = vscode.workspace.workspaceFile?.scheme === 'file' ? vscode.workspace.workspaceFile.fsPath : undefined;
    return { values, workspaceFolders, ...(storageFolder ? { storageFolder } : {}), ...(workspaceFile ? { workspaceFile } : {}) };
  }

  /** Stops listening and removes the sandbox temp folder. */
  dispose(): void {
    this.source.dispose();
  }
}
