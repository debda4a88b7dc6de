/**
 * Which setting keys the agent sandbox policy is read from, and which key wins for each setting.
 * Plain Node: the VS Code layer (src/vscode/terminal/sandboxSettings.ts) hands a function that
 * reads one key's value in force and its layers (`WorkspaceConfiguration.get` and `inspect`);
 * everything deciding between keys lives here, so it is tested without a host.
 */
import { isDeepStrictEqual } from 'node:util';
import { SETTING } from '../../common/ids';
import { SandboxSettingValues } from './policy';

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

/** The configuration sections whose change may change the policy (for `affectsConfiguration`). */
export const SANDBOX_SETTING_SECTIONS: readonly string[] = ['chat.agent.sandbox', SETTING.terminalSandbox];

/**
 * One key as VS Code's configuration shows it: `get(key)` and the layers of `inspect(key)`.
 * Language-specific values are not read.
 */
export interface SettingRead {
  /** `get(key)`: the value in force (organisation policy, folder, workspace, user, default). */
  value: unknown;
  /** The default (a declared default, another extension's default, or an experiment's value). */
  defaultValue?: unknown;
  /** The user settings' value (`inspect`'s `globalValue`). */
  globalValue?: unknown;
  /** The workspace settings' value. */
  workspaceValue?: unknown;
  /** The workspace folder settings' value. */
  workspaceFolderValue?: unknown;
  /** The organisation policy's value, where VS Code reports it (`inspect`'s `policyValue`, outside the typed API). */
  policyValue?: unknown;
}

/** Reads one key now; undefined where the host has nothing to say about it. */
export type ReadSetting = (key: string) => SettingRead | undefined;

/** Where a value comes from: organisation policy, a person's own setting (user, workspace, folder), or neither (a default or an experiment). */
export type SettingSource = 'policy' | 'explicit' | 'default';

/**
 * The raw values the policy is computed from (see {@link SandboxSettingValues}), read through `read`.
 * @param platform `darwin` reads the macOS file-system key, anything else the Linux one.
 */
export function sandboxSettingValues(read: ReadSetting, platform: NodeJS.Platform = process.platform): SandboxSettingValues {
  const get = (key: string) => read(key)?.value;
  const dsh = read(SETTING.terminalSandbox);
  const enabled = read(VSCODE_SANDBOX_SETTING.enabled);
  const unsandboxed = read(VSCODE_SANDBOX_SETTING.allowUnsandboxedCommands);
  return {
    dshMode: dsh?.value,
    // The person's own layer: a workspace's "off" (machine-overridable) cannot weaken their "on".
    dshUserMode: dsh?.globalValue,
    vscodeEnabled: enabled?.value,
    vscodeEnabledSource: settingSource(enabled),
    allowNetwork: get(VSCODE_SANDBOX_SETTING.allowNetwork),
    allowedDomains: get(VSCODE_SANDBOX_SETTING.allowedDomains),
    deniedDomains: get(VSCODE_SANDBOX_SETTING.deniedDomains),
    fileSystem: get(platform === 'darwin' ? VSCODE_SANDBOX_SETTING.fileSystemMac : VSCODE_SANDBOX_SETTING.fileSystemLinux),
    allowUnsandboxedCommands: unsandboxed?.value,
    allowUnsandboxedSource: settingSource(unsandboxed),
  };
}

/**
 * Where a key's value in force comes from: `policy` when VS Code reports a policy value, or when
 * the value in force is none of the layers the API shows (organisation policy is the layer it
 * does not list); `explicit` when a person's layer (user, workspace, folder) holds it; else
 * `default`.
 */
export function settingSource(setting: SettingRead | undefined): SettingSource {
  if (!setting) return 'default';
  if (setting.policyValue !== undefined) return 'policy';
  const layers = [setting.globalValue, setting.workspaceValue, setting.workspaceFolderValue];
  if (layers.some((v) => v !== undefined && isDeepStrictEqual(v, setting.value))) return 'explicit';
  return setting.value !== undefined && !isDeepStrictEqual(setting.value, setting.defaultValue) ? 'policy' : 'default';
}
