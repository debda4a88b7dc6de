/**
 * Reads VS Code's own terminal auto-approve settings for the agent commands DSH Bridge runs,
 * live (on every call: a change applies to the next command):
 * `chat.tools.terminal.enableAutoApprove`, `chat.tools.terminal.autoApprove` (with VS Code's
 * defaults from the setting's registered `defaultValue`: none where VS Code does not register the
 * setting, as 1.100), `chat.tools.terminal.ignoreDefaultAutoApproveRules`,
 * `chat.tools.terminal.autoApproveWorkspaceNpmScripts`, `chat.tools.terminal.blockDetectedFileWrites`,
 * `chat.tools.global.autoApprove` and `chat.agent.sandbox.allowAutoApprove`.
 *
 * Scopes as VS Code merges them (default, user, workspace, workspace folder; an organisation
 * policy value wins), and, as VS Code does for these restricted settings, no workspace or folder
 * value is honoured while the workspace is not trusted (Restricted Mode): a workspace could
 * otherwise approve its own commands.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { mergeRuleLayers, rulesFrom } from '../../approval/rules';
import type { ApprovalContext, ApprovalRule } from '../../approval/types';

/** The setting keys read here. */
export const AUTO_APPROVE_SETTING = {
  enable: 'chat.tools.terminal.enableAutoApprove',
  rules: 'chat.tools.terminal.autoApprove',
  ignoreDefaults: 'chat.tools.terminal.ignoreDefaultAutoApproveRules',
  npmScripts: 'chat.tools.terminal.autoApproveWorkspaceNpmScripts',
  fileWrites: 'chat.tools.terminal.blockDetectedFileWrites',
  global: 'chat.tools.global.autoApprove',
  sandbox: 'chat.agent.sandbox.allowAutoApprove',
} as const;

/** The settings in force now. */
export interface AutoApproveSettings {
  /** `enableAutoApprove`: rules may approve at all (false where VS Code does not register it and the person did not set it). */
  enabled: boolean;
  rules: ApprovalRule[];
  /** Keys of `autoApprove` whose value is none of `true`, `false`, `null`, `{approve, matchCommandLine}`. */
  ignoredKeys: string[];
  blockFileWrites: ApprovalContext['blockFileWrites'];
  npmScripts: boolean;
  /** `chat.tools.global.autoApprove`: every tool call approved. */
  global: boolean;
  /** `chat.agent.sandbox.allowAutoApprove`: commands in a sandboxed session approved. */
  sandbox: boolean;
  /** True when this VS Code registers the rules setting (it has defaults); false in 1.100. */
  registered: boolean;
}

interface Layers {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
  policyValue?: unknown;
}

/** A key's layers, the workspace's left out in Restricted Mode. */
function layersOf(config: vscode.WorkspaceConfiguration, key: string): Layers {
  const i = config.inspect(key) as Layers | undefined;
  if (!i) return {};
  if (vscode.workspace.isTrusted) return i;
  return { defaultValue: i.defaultValue, globalValue: i.globalValue, policyValue: i.policyValue };
}

/**
 * A scalar setting's value in force: policy, folder, workspace, user, default, then `fallback`.
 * `userOnly`: a setting VS Code takes from user settings only (it refuses to write it elsewhere,
 * and ignores it there), so a workspace's value is never read.
 */
function scalar<T>(config: vscode.WorkspaceConfiguration, key: string, valid: (v: unknown) => v is T, fallback: T, userOnly = false): T {
  const l = layersOf(config, key);
  const order = userOnly
    ? [l.policyValue, l.globalValue, l.defaultValue]
    : [l.policyValue, l.workspaceFolderValue, l.workspaceValue, l.globalValue, l.defaultValue];
  for (const v of order) if (valid(v)) return v;
  return fallback;
}

const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';
const isFileWrites = (v: unknown): v is AutoApproveSettings['blockFileWrites'] => v === 'never' || v === 'outsideWorkspace' || v === 'all';

/** The settings in force now (read at the call). */
export function readAutoApproveSettings(): AutoApproveSettings {
  const config = vscode.workspace.getConfiguration();
  const ignoreDefaults = scalar(config, AUTO_APPROVE_SETTING.ignoreDefaults, isBoolean, false);
  const l = layersOf(config, AUTO_APPROVE_SETTING.rules);
  const defaults = ignoreDefaults ? undefined : l.defaultValue;
  const personLayers = [l.globalValue, l.workspaceValue, l.workspaceFolderValue];
  const merged = mergeRuleLayers([defaults, ...personLayers]);
  const setByPerson = new Set(personLayers.flatMap((layer) => (typeof layer === 'object' && layer !== null ? Object.keys(layer) : [])));
  const { rules, ignored } = rulesFrom(merged, (key) => (setByPerson.has(key) ? 'settings' : 'default'));
  return {
    enabled: scalar(config, AUTO_APPROVE_SETTING.enable, isBoolean, false),
    rules: rules.map(({ key, approve, matchCommandLine, source }) => ({ key, approve, matchCommandLine, source })),
    ignoredKeys: ignored,
    blockFileWrites: scalar(config, AUTO_APPROVE_SETTING.fileWrites, isFileWrites, 'outsideWorkspace'),
    npmScripts: scalar(config, AUTO_APPROVE_SETTING.npmScripts, isBoolean, false),
    // VS Code 1.139 writes chat.tools.global.autoApprove only into user settings.
    global: scalar(config, AUTO_APPROVE_SETTING.global, isBoolean, false, true),
    sandbox: scalar(config, AUTO_APPROVE_SETTING.sandbox, isBoolean, false),
    registered: l.defaultValue !== undefined,
  };
}

/** Bytes of a package.json read for its scripts. */
const PACKAGE_JSON_MAX_BYTES = 1024 * 1024;

/**
 * The script names of the package.json at the root of each workspace folder on disk (for
 * `autoApproveWorkspaceNpmScripts`); a file that is missing, too big or not JSON gives none.
 */
export async function workspaceNpmScripts(): Promise<string[]> {
  const names = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file') continue;
    const file = path.join(folder.uri.fsPath, 'package.json');
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile() || stat.size > PACKAGE_JSON_MAX_BYTES) continue;
      const pkg = JSON.parse(await fs.promises.readFile(file, 'utf8')) as { scripts?: unknown };
      if (typeof pkg.scripts === 'object' && pkg.scripts !== null) for (const k of Object.keys(pkg.scripts)) names.add(k);
    } catch {
      // no scripts from this folder
    }
  }
  return [...names];
}

/** The workspace folders on disk, as absolute paths. */
export function workspaceFolderPaths(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
