/**
 * Which setting keys the agent sandbox policy is read from, and which key wins for each setting.
 * Plain Node: the VS Code layer (src/vscode/terminal/sandboxSettings.ts) hands a function that
 * reads one key's value in force and its layers (`WorkspaceConfiguration.get` and `inspect`);
 * everything deciding between keys lives here, so it is tested without a host.
 */
import { isDeepStrictEqual } from 'node:util';
import { SETTING } from '../../common/ids';
import { isRecord, OlderSandboxSettings, SandboxSettingValues } from './policy';

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

/**
 * Older names of VS Code's agent sandbox settings that VS Code still honours where the current key
 * is not set, in the order it tries them: its sandboxSettingsReader (DEPRECATED_SANDBOX_FALLBACKS,
 * "Using deprecated setting X because Y is not set"), then the keys of VS Code 1.109 (release notes
 * of 1.109: `chat.tools.terminal.sandbox.enabled`, `.linuxFileSystem`, `.macFileSystem`, `.network`).
 */
export const OLDER_SANDBOX_SETTING = {
  /** Boolean or "on" / "off" (true = "on", false = "off"). */
  enabled: ['chat.agent.sandbox', 'chat.tools.terminal.sandbox.enabled'],
  allowedDomains: ['chat.agent.sandbox.allowedNetworkDomains', 'chat.agent.sandboxNetwork.allowedDomains'],
  deniedDomains: ['chat.agent.sandbox.deniedNetworkDomains', 'chat.agent.sandboxNetwork.deniedDomains'],
  /** `{allowWrite, denyWrite, denyRead}` as today's. */
  fileSystemLinux: ['chat.agent.sandboxFileSystem.linux', 'chat.tools.terminal.sandbox.linuxFileSystem'],
  fileSystemMac: ['chat.agent.sandboxFileSystem.mac', 'chat.tools.terminal.sandbox.macFileSystem'],
} as const;

/**
 * VS Code 1.109's sandbox keys. Its network rule: all network blocked but
 * `network.allowedDomains` (minus `network.deniedDomains`); `network.allowTrustedDomains` added
 * the domains trusted in VS Code ("Trusted Domains"), which an extension cannot read.
 */
export const VSCODE_1_109_SANDBOX_SETTING = {
  enabled: 'chat.tools.terminal.sandbox.enabled',
  network: 'chat.tools.terminal.sandbox.network',
} as const;

/**
 * The configuration sections whose change may change the policy, for `affectsConfiguration` (which
 * matches a key and every section above it, by whole dot-separated segments): every current and
 * older key read here lies inside one.
 */
export const SANDBOX_SETTING_SECTIONS: readonly string[] = [
  'chat.agent.sandbox',
  'chat.agent.allowedNetworkDomains',
  'chat.agent.deniedNetworkDomains',
  'chat.agent.sandboxFileSystem',
  'chat.agent.sandboxNetwork',
  'chat.tools.terminal.sandbox',
  SETTING.terminalSandbox,
];

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
 *
 * Which key decides each setting: the current key when it is set (a person's user, workspace or
 * folder value, or an organisation policy's value); otherwise the first of its older names
 * ({@link OLDER_SANDBOX_SETTING}) that is set, as VS Code reads them; otherwise the current key's
 * default. One key per setting, never a mix. An older name is set by an organisation policy value
 * or a person's layer, the most specific one in force, except that a workspace's or folder's
 * "off" of an older `enabled` name cannot weaken the user settings' "on" of the same name; an
 * object under `chat.agent.sandbox` is the current keys beneath it, not the older setting. Older
 * `enabled` values are normalised as VS Code does: true = "on", false = "off".
 *
 * When VS Code 1.109's `chat.tools.terminal.sandbox.enabled` decides and the person has not set
 * `chat.agent.sandbox.allowNetwork`, the network is that version's: `allowNetwork` is false and the
 * domain lists, where neither their current keys nor older names are set, come from
 * `chat.tools.terminal.sandbox.network` (`allowTrustedDomains` cannot be honoured: reported in
 * `older.problems`, treated as false).
 * @param platform `darwin` reads the macOS file-system keys, anything else the Linux ones.
 */
export function sandboxSettingValues(read: ReadSetting, platform: NodeJS.Platform = process.platform): SandboxSettingValues {
  const dsh = read(SETTING.terminalSandbox);
  const older: OlderSandboxSettings = {};
  const problems: string[] = [];

  const enabled = read(VSCODE_SANDBOX_SETTING.enabled);
  let vscodeEnabled = enabled?.value;
  let vscodeEnabledSource = settingSource(enabled);
  for (const key of OLDER_SANDBOX_SETTING.enabled) {
    const found = olderValue(read(key), true);
    if (vscodeEnabledSource !== 'default' || older.enabled || !found) continue;
    older.enabled = { key, value: found.value };
    vscodeEnabled = found.value === true ? 'on' : found.value === false ? 'off' : found.value;
    vscodeEnabledSource = found.source;
  }

  const mac = platform === 'darwin';
  const fileSystem = chain(
    read,
    mac ? VSCODE_SANDBOX_SETTING.fileSystemMac : VSCODE_SANDBOX_SETTING.fileSystemLinux,
    mac ? OLDER_SANDBOX_SETTING.fileSystemMac : OLDER_SANDBOX_SETTING.fileSystemLinux,
  );
  let allowed = chain(read, VSCODE_SANDBOX_SETTING.allowedDomains, OLDER_SANDBOX_SETTING.allowedDomains);
  let denied = chain(read, VSCODE_SANDBOX_SETTING.deniedDomains, OLDER_SANDBOX_SETTING.deniedDomains);
  const allowNetworkRead = read(VSCODE_SANDBOX_SETTING.allowNetwork);
  let allowNetwork = allowNetworkRead?.value;
  const eraNetwork = olderValue(read(VSCODE_1_109_SANDBOX_SETTING.network), false);
  if (older.enabled?.key === VSCODE_1_109_SANDBOX_SETTING.enabled && settingSource(allowNetworkRead) === 'default') {
    // VS Code 1.109 blocked all network but the allowed domains.
    allowNetwork = false;
    older.network1109 = true;
    const network = VSCODE_1_109_SANDBOX_SETTING.network;
    const rules = isRecord(eraNetwork?.value) ? eraNetwork.value : {};
    if (eraNetwork && !isRecord(eraNetwork.value))
      problems.push(`${network} must be an object with allowedDomains, deniedDomains (got ${JSON.stringify(eraNetwork.value)}); ignored`);
    if (!allowed.set) {
      allowed = { value: rules.allowedDomains, key: `${network}.allowedDomains`, set: true };
      if (rules.allowTrustedDomains === true) {
        problems.push(
          `${network}.allowTrustedDomains is true, which DSH Bridge cannot honour (an extension cannot read VS Code's trusted domains); it is treated as false: only ${network}.allowedDomains are let through`,
        );
      }
    }
    if (!denied.set) denied = { value: rules.deniedDomains, key: `${network}.deniedDomains`, set: true };
  }
  if (fileSystem.key) older.fileSystem = fileSystem.key;
  if (allowed.key) older.allowedDomains = allowed.key;
  if (denied.key) older.deniedDomains = denied.key;
  const readInstead = [
    older.enabled && { key: older.enabled.key, for: VSCODE_SANDBOX_SETTING.enabled },
    allowed.key && { key: allowed.key, for: VSCODE_SANDBOX_SETTING.allowedDomains },
    denied.key && { key: denied.key, for: VSCODE_SANDBOX_SETTING.deniedDomains },
    fileSystem.key && { key: fileSystem.key, for: mac ? VSCODE_SANDBOX_SETTING.fileSystemMac : VSCODE_SANDBOX_SETTING.fileSystemLinux },
  ].flatMap((r) =>
    r
      ? [{ ...r, as: r.key.startsWith(`${VSCODE_1_109_SANDBOX_SETTING.network}.`) ? ('network1109' as const) : ('olderName' as const) }]
      : [],
  );
  if (readInstead.length > 0) older.read = readInstead;
  if (problems.length > 0) older.problems = problems;

  const unsandboxed = read(VSCODE_SANDBOX_SETTING.allowUnsandboxedCommands);
  return {
    dshMode: dsh?.value,
    // The person's own layer: a workspace's "off" (machine-overridable) cannot weaken their "on".
    dshUserMode: dsh?.globalValue,
    vscodeEnabled,
    vscodeEnabledSource,
    allowNetwork,
    allowedDomains: allowed.value,
    deniedDomains: denied.value,
    fileSystem: fileSystem.value,
    allowUnsandboxedCommands: unsandboxed?.value,
    allowUnsandboxedSource: settingSource(unsandboxed),
    ...(Object.keys(older).length > 0 ? { older } : {}),
  };
}

/** A setting's value, the older name it was read from (absent: the current key), and whether a person or a policy set it. */
interface Chosen {
  value: unknown;
  key?: string;
  set: boolean;
}

/** The current key when set, else the first older name set, else the current key's default (every key is read). */
function chain(read: ReadSetting, current: string, olderKeys: readonly string[]): Chosen {
  const setting = read(current);
  let chosen: Chosen = settingSource(setting) !== 'default' ? { value: setting?.value, set: true } : { value: setting?.value, set: false };
  for (const key of olderKeys) {
    const found = olderValue(read(key), false);
    if (!chosen.set && found) chosen = { value: found.value, key, set: true };
  }
  return chosen;
}

/**
 * An older name's value where an organisation policy or a person set it, as VS Code reads it:
 * the policy value, else the most specific person layer (folder, workspace, user). For an
 * `enabled` name, objects are the current keys beneath the name (not the setting), and the user
 * settings' "on" holds against a workspace's or folder's "off".
 */
function olderValue(setting: SettingRead | undefined, enabled: boolean): { value: unknown; source: 'policy' | 'explicit' } | undefined {
  if (!setting) return undefined;
  const usable = (v: unknown) => v !== undefined && !(enabled && isRecord(v));
  if (usable(setting.policyValue)) return { value: setting.policyValue, source: 'policy' };
  const inForce = [setting.workspaceFolderValue, setting.workspaceValue, setting.globalValue].find(usable);
  if (inForce === undefined) return undefined;
  if (enabled && !isOn(inForce) && usable(setting.globalValue) && isOn(setting.globalValue))
    return { value: setting.globalValue, source: 'explicit' };
  return { value: inForce, source: 'explicit' };
}

/** Whether an `enabled` value turns the sandbox on, as VS Code reads it: all but absent, null, false and "off". */
function isOn(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false && value !== 'off';
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
