/**
 * The sandbox policy of a new agent session, computed from VS Code's agent sandbox settings and
 * `dsh.terminal.sandbox`. Plain Node: the VS Code layer reads the settings and hands their values
 * here, so every rule is tested without a host.
 *
 * The settings and their meaning are VS Code's (1.116 and later, "Sandbox agent terminal commands"):
 * `chat.agent.sandbox.enabled` ("off" | "on"), `chat.agent.sandbox.allowNetwork` (default true:
 * file-system rules only), `chat.agent.allowedNetworkDomains` / `chat.agent.deniedNetworkDomains`
 * (the network rules when allowNetwork is false; both empty = no network; denied wins),
 * `chat.agent.sandbox.fileSystem.linux` / `.mac` (`denyRead`, `allowRead`, `allowWrite`,
 * `denyWrite`), `chat.agent.sandbox.allowUnsandboxedCommands`. Writes are allowed only in the
 * workspace folders, the extension's workspace storage and a sandbox temp folder, plus `allowWrite`.
 * Where the person has not set a current key, VS Code still honours its older names; which key
 * decides is chosen in src/terminal/sandbox/settingKeys.ts, and the policy names it.
 */
import * as os from 'node:os';
import * as path from 'node:path';

/** The current key that turns VS Code's agent sandbox on. */
const ENABLED = 'chat.agent.sandbox.enabled';

/** Values of `dsh.terminal.sandbox`. */
export const DSH_SANDBOX_MODES = ['followVSCode', 'on', 'off'] as const;
export type DshSandboxMode = (typeof DSH_SANDBOX_MODES)[number];

/** The raw setting values the policy is computed from, as `getConfiguration().get` returns them. */
export interface SandboxSettingValues {
  /** `dsh.terminal.sandbox` in force; anything else than the three modes is a problem and counts as followVSCode. */
  dshMode: unknown;
  /**
   * `dsh.terminal.sandbox` in the person's user settings (their own layer), when they set it there.
   * The setting is machine-overridable, so a workspace's or folder's value is the one in force; "on"
   * here holds whatever they say.
   */
  dshUserMode?: unknown;
  /**
   * `chat.agent.sandbox.enabled` in force: on for every value but "off" and `false` (and absent), as
   * VS Code reads it; "allowNetwork" (its value for "on with all network" before the `allowNetwork`
   * setting) is on with all network.
   */
  vscodeEnabled: unknown;
  /** Where `chat.agent.sandbox.enabled` comes from: organisation policy, a person's explicit setting, or neither. */
  vscodeEnabledSource: 'policy' | 'explicit' | 'default';
  /** `chat.agent.sandbox.allowNetwork` (default true). */
  allowNetwork: unknown;
  /** `chat.agent.allowedNetworkDomains`. */
  allowedDomains: unknown;
  /** `chat.agent.deniedNetworkDomains`. */
  deniedDomains: unknown;
  /** `chat.agent.sandbox.fileSystem.linux` on Linux, `.mac` on macOS. */
  fileSystem: unknown;
  /** `chat.agent.sandbox.allowUnsandboxedCommands` in force (VS Code 1.116+ declares it with default true; undefined where not declared and not set). */
  allowUnsandboxedCommands: unknown;
  /** Where `chat.agent.sandbox.allowUnsandboxedCommands` comes from (as for `vscodeEnabledSource`); default `default`. */
  allowUnsandboxedSource?: 'policy' | 'explicit' | 'default';
  /** The older setting names read in place of current keys the person did not set; absent: only current keys. */
  older?: OlderSandboxSettings;
}

/** Older setting names a {@link SandboxSettingValues} was read from (see src/terminal/sandbox/settingKeys.ts). */
export interface OlderSandboxSettings {
  /**
   * The older name of `chat.agent.sandbox.enabled` that decided, and its value as set;
   * `vscodeEnabled` then holds it normalised (true = "on", false = "off").
   */
  enabled?: { key: string; value: unknown };
  /** The key `allowedDomains` was read from (an older name, or `chat.tools.terminal.sandbox.network.allowedDomains`). */
  allowedDomains?: string;
  /** The key `deniedDomains` was read from. */
  deniedDomains?: string;
  /** The key `fileSystem` was read from. */
  fileSystem?: string;
  /**
   * True when VS Code 1.109's `chat.tools.terminal.sandbox.enabled` decided and the person did not
   * set `chat.agent.sandbox.allowNetwork`: the network is that version's (`allowNetwork` false, the
   * domain lists as above).
   */
  network1109?: true;
  /** Older values that could not be honoured as set, each with what is used instead. */
  problems?: string[];
  /**
   * Each key read in place of a current key (`for`) the person did not set: as its older name, or
   * (`network1109`) a domain list of VS Code 1.109's `chat.tools.terminal.sandbox.network`. In the
   * order enabled, allowed domains, denied domains, file system.
   */
  read?: { key: string; for: string; as: 'olderName' | 'network1109' }[];
}

/** Where the session's folders are: the roots a sandboxed session may always write. */
export interface SandboxFolders {
  /** Absolute paths of the workspace folders (file URIs only). */
  workspaceFolders: string[];
  /** The extension's workspace storage folder, when VS Code gives one. */
  storageFolder?: string;
  /** The sandbox temp folder (the session's TMPDIR inside). */
  tempFolder: string;
  /**
   * Absolute path of the open `.code-workspace` file (VS Code's `workspace.workspaceFile`, file
   * URIs only), when there is one. Its settings (`dsh.lsp.servers`, `dsh.terminal.env`, …), tasks
   * and launch configurations make VS Code and this extension run programs outside the sandbox, so
   * it is added to `denyWrite` (it is often saved inside a workspace folder).
   */
  workspaceFile?: string;
}

/** The network of a sandboxed session: everything, or only what the domain rules let through a proxy. */
export type SandboxNetwork = { kind: 'all' } | { kind: 'domains'; allowedDomains: string[]; deniedDomains: string[] };

/** The policy a new session runs under. */
export interface SandboxPolicy {
  on: boolean;
  /** Why it is on or off, naming the setting that decided. */
  reason: string;
  network: SandboxNetwork;
  /** Absolute folders the session may write (workspace folders, storage, temp, then allowWrite). */
  writableRoots: string[];
  /** Paths that cannot be read (literal on Linux, git-style globs on macOS). */
  denyRead: string[];
  /** Paths re-allowed inside a denyRead path. */
  allowRead: string[];
  /** Paths that cannot be written even inside a writable root. */
  denyWrite: string[];
  /** The sandbox temp folder (TMPDIR inside the session). */
  tempFolder: string;
  /**
   * Whether an agent may ask for a session outside the sandbox (each one then needs the person's
   * confirmation), and why (the setting that decided, and what would change the answer).
   */
  unsandboxed: { allowed: boolean; why: string };
  /** Setting values that were ignored, each with what is valid. */
  problems: string[];
  /**
   * Each older setting name read in place of a current key that is not set, with that key (as VS
   * Code warns "Using deprecated setting X because Y is not set"); absent where only current keys
   * were read.
   */
  olderSettings?: string[];
}

/** What tool results say about a session's sandbox. */
export interface SandboxSummary {
  on: boolean;
  /**
   * Set on a session that runs outside the agent sandbox although the sandbox was on when it
   * opened: an agent asked for it and the person confirmed it
   * (`chat.agent.sandbox.allowUnsandboxedCommands`). `on` is then false.
   */
  outsideApproved?: true;
  /** `all`, `none`, or the domain rules that decide each connection. */
  network: 'all' | 'none' | { allowedDomains: string[]; deniedDomains: string[] };
  writableRoots: string[];
}

/**
 * The policy for a new session.
 * - On: `dsh.terminal.sandbox: "on"` (in force, or in the user settings: a workspace's or folder's
 *   value cannot weaken the person's own "on"); or `chat.agent.sandbox.enabled` on with `followVSCode`; or
 *   `chat.agent.sandbox.enabled` on by organisation policy or set explicitly by a person, whatever
 *   `dsh.terminal.sandbox` says ("off" cannot weaken them). "off" only turns off a value that came
 *   from neither (a default or an experiment).
 * - Network: all unless `allowNetwork` is false; then the domain rules. `chat.agent.sandbox.enabled`
 *   "allowNetwork" (VS Code's earlier value for this) is all network.
 * - Paths: `~` and `~/…` are expanded to `home`; relative paths are ignored and listed in `problems`.
 * - The open `.code-workspace` file (`folders.workspaceFile`) is never writable (`denyWrite`).
 * - Older setting names (`values.older`): the reason and the problems name the key read, e.g.
 *   "chat.tools.terminal.sandbox.enabled is true (an older name of chat.agent.sandbox.enabled)";
 *   an older name set by the person counts as set explicitly ("off" cannot weaken it either).
 *   With VS Code 1.109's network (`older.network1109`) the reason says which domains get through.
 */
export function sandboxPolicy(values: SandboxSettingValues, folders: SandboxFolders, home: string = os.homedir()): SandboxPolicy {
  const problems: string[] = [...(values.older?.problems ?? [])];
  let mode: DshSandboxMode = 'followVSCode';
  if (values.dshMode !== undefined) {
    if ((DSH_SANDBOX_MODES as readonly unknown[]).includes(values.dshMode)) mode = values.dshMode as DshSandboxMode;
    else
      problems.push(
        `dsh.terminal.sandbox must be one of ${DSH_SANDBOX_MODES.join(', ')} (got ${JSON.stringify(values.dshMode)}); followVSCode is used`,
      );
  }
  const olderEnabled = values.older?.enabled;
  const vscodeOn = vscodeSandboxOn(values.vscodeEnabled, olderEnabled?.key ?? ENABLED, problems);
  const shown = typeof values.vscodeEnabled === 'string' && values.vscodeEnabled !== 'on' ? JSON.stringify(values.vscodeEnabled) : '"on"';
  // The key that decided and its value as set, e.g. `chat.agent.sandbox.enabled is "on"`.
  const enabledIs = olderEnabled
    ? `${olderEnabled.key} is ${JSON.stringify(olderEnabled.value)} (an older name of ${ENABLED})`
    : `${ENABLED} is ${shown}`;
  let on: boolean;
  let reason: string;
  if (values.dshUserMode === 'on' && mode !== 'on')
    [on, reason] = [true, 'dsh.terminal.sandbox is "on" in your user settings; a workspace\'s value cannot weaken it'];
  else if (mode === 'on') [on, reason] = [true, 'dsh.terminal.sandbox is "on"'];
  else if (mode === 'off') {
    if (vscodeOn && values.vscodeEnabledSource !== 'default') {
      const by = values.vscodeEnabledSource === 'policy' ? 'by organisation policy' : 'explicitly';
      [on, reason] = [true, `${enabledIs} ${by}; dsh.terminal.sandbox "off" cannot weaken it`];
    } else [on, reason] = [false, 'dsh.terminal.sandbox is "off"'];
  } else if (vscodeOn) [on, reason] = [true, `${enabledIs}${values.vscodeEnabledSource === 'policy' ? ' (organisation policy)' : ''}`];
  else if (olderEnabled) [on, reason] = [false, `${enabledIs}, so it is off (dsh.terminal.sandbox follows it)`];
  else [on, reason] = [false, 'chat.agent.sandbox.enabled is not "on" (dsh.terminal.sandbox follows it)'];

  const allowedKey = values.older?.allowedDomains ?? 'chat.agent.allowedNetworkDomains';
  const deniedKey = values.older?.deniedDomains ?? 'chat.agent.deniedNetworkDomains';
  if (on && values.older?.network1109)
    reason += `; network as in VS Code 1.109 (${olderEnabled?.key}): blocked but ${allowedKey} (minus ${deniedKey}); chat.agent.sandbox.allowNetwork set in your settings decides instead`;

  const network: SandboxNetwork =
    values.allowNetwork === false && values.vscodeEnabled !== 'allowNetwork'
      ? {
          kind: 'domains',
          allowedDomains: stringList(values.allowedDomains, allowedKey, problems),
          deniedDomains: stringList(values.deniedDomains, deniedKey, problems),
        }
      : { kind: 'all' };
  if (values.allowNetwork !== undefined && typeof values.allowNetwork !== 'boolean')
    problems.push(`chat.agent.sandbox.allowNetwork must be true or false (got ${JSON.stringify(values.allowNetwork)}); true is used`);

  const fsKey = values.older?.fileSystem ?? 'chat.agent.sandbox.fileSystem';
  const fsSetting = isRecord(values.fileSystem) ? values.fileSystem : {};
  if (values.fileSystem !== undefined && !isRecord(values.fileSystem))
    problems.push(`${fsKey} must be an object with denyRead, allowRead, allowWrite, denyWrite; ignored`);
  const paths = (key: string) => absolutePaths(stringList(fsSetting[key], `${fsKey}.${key}`, problems), `${fsKey}.${key}`, home, problems);
  const writableRoots = unique([
    ...folders.workspaceFolders,
    ...(folders.storageFolder ? [folders.storageFolder] : []),
    folders.tempFolder,
    ...paths('allowWrite'),
  ]);
  return {
    on,
    reason,
    network,
    writableRoots,
    denyRead: paths('denyRead'),
    allowRead: paths('allowRead'),
    denyWrite: unique([...paths('denyWrite'), ...(folders.workspaceFile ? [folders.workspaceFile] : [])]),
    tempFolder: folders.tempFolder,
    unsandboxed: unsandboxedRule(on, values, problems),
    problems,
    ...(values.older?.read?.length
      ? {
          olderSettings: values.older.read.map(
            (r) =>
              `${r.key} is read because ${r.for} is not set (${r.as === 'olderName' ? 'its older name; rename it' : "VS Code 1.109's network rule"})`,
          ),
        }
      : {}),
  };
}

/**
 * Whether `chat.agent.sandbox.enabled` (`value`, as `getConfiguration().get` returns it) turns the
 * sandbox on, as VS Code decides it (`isAgentSandboxEnabledValue`): every value but "off" and
 * `false` (and absent or null) is on. A value other than "on", "allowNetwork" and `true` is
 * reported in `problems` under `key` (the key it was read from), still counted as on.
 */
function vscodeSandboxOn(value: unknown, key: string, problems: string[]): boolean {
  if (value === undefined || value === null || value === false || value === 'off') return false;
  if (value !== 'on' && value !== 'allowNetwork' && value !== true) {
    problems.push(
      `${key} has the value ${JSON.stringify(value)}, which VS Code counts as on (its values are "off" and "on"); the sandbox is on`,
    );
  }
  return true;
}

/** The part of a policy tool results show. */
export function sandboxSummary(policy: SandboxPolicy): SandboxSummary {
  if (!policy.on) return { on: false, network: 'all', writableRoots: [] };
  const { network } = policy;
  return {
    on: true,
    network:
      network.kind === 'all'
        ? 'all'
        : network.allowedDomains.length === 0
          ? 'none'
          : { allowedDomains: network.allowedDomains, deniedDomains: network.deniedDomains },
    writableRoots: policy.writableRoots,
  };
}

/** The summary of a session that runs outside any sandbox. */
export const UNSANDBOXED: SandboxSummary = Object.freeze({ on: false, network: 'all', writableRoots: [] });

/** The summary of a session the person approved to run outside the agent sandbox while it is on. */
export const OUTSIDE_APPROVED: SandboxSummary = Object.freeze({ on: false, outsideApproved: true, network: 'all', writableRoots: [] });

/** The setting that lets an agent ask for a session outside the sandbox. */
const ALLOW_UNSANDBOXED = 'chat.agent.sandbox.allowUnsandboxedCommands';

/**
 * Whether an agent may ask for a session outside the sandbox (VS Code's
 * `chat.agent.sandbox.allowUnsandboxedCommands`): only where that setting is `true`; never where
 * `chat.agent.sandbox.enabled` is on by organisation policy unless the policy itself sets
 * `allowUnsandboxedCommands` true. Absent (a VS Code that does not declare it, not set) counts as
 * not allowed. With the sandbox off every session runs outside it anyway.
 */
function unsandboxedRule(on: boolean, values: SandboxSettingValues, problems: string[]): { allowed: boolean; why: string } {
  const value = values.allowUnsandboxedCommands;
  if (value !== undefined && typeof value !== 'boolean')
    problems.push(`${ALLOW_UNSANDBOXED} must be true or false (got ${JSON.stringify(value)}); false is used`);
  if (!on) return { allowed: true, why: 'the agent sandbox is off: every session runs outside it' };
  if (values.vscodeEnabledSource === 'policy' && values.allowUnsandboxedSource !== 'policy') {
    return {
      allowed: false,
      why: `the agent sandbox is locked on by organisation policy (chat.agent.sandbox.enabled), and the policy does not allow unsandboxed commands; only the organisation's policy can allow them (${ALLOW_UNSANDBOXED})`,
    };
  }
  if (value === true)
    return {
      allowed: true,
      why: `${ALLOW_UNSANDBOXED} is true${values.allowUnsandboxedSource === 'policy' ? ' (organisation policy)' : ''}: each such session needs the person's confirmation`,
    };
  const state =
    value === false ? `is false${values.allowUnsandboxedSource === 'policy' ? ' (organisation policy)' : ''}` : 'is not set to true';
  const fix =
    values.allowUnsandboxedSource === 'policy'
      ? "only the organisation's policy can change it"
      : `the person can set ${ALLOW_UNSANDBOXED} to true in their settings to allow asking for it`;
  return { allowed: false, why: `${ALLOW_UNSANDBOXED} ${state}, so every agent session runs in the sandbox; ${fix}` };
}

function stringList(value: unknown, name: string, problems: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${name} must be a list of strings (got ${JSON.stringify(value)}); ignored`);
    return [];
  }
  const strings = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (strings.length !== value.length) problems.push(`${name}: entries that are not non-empty strings are ignored`);
  return unique(strings.map((s) => s.trim()));
}

/** `entries` of the file-system rule `setting` (e.g. `chat.agent.sandbox.fileSystem.allowWrite`) with `~` expanded; relative ones go to `problems`. */
function absolutePaths(entries: string[], setting: string, home: string, problems: string[]): string[] {
  const result: string[] = [];
  for (const entry of entries) {
    const expanded = entry === '~' ? home : entry.startsWith('~/') ? path.join(home, entry.slice(2)) : entry;
    if (!path.isAbsolute(expanded)) {
      problems.push(`${setting}: ${JSON.stringify(entry)} is not an absolute path (or ~/…); ignored`);
      continue;
    }
    result.push(expanded.length > 1 ? expanded.replace(/\/+$/, '') : expanded);
  }
  return result;
}

/** A plain object (not null, not an array): the shape of an object setting. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
