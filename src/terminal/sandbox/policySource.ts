/**
 * The agent sandbox policy in force, computed once and reused until something it is computed from
 * changes. Plain Node: the host (src/vscode/terminal/sandboxSettings.ts) gives how to read the
 * settings and folders, and the events that say they changed.
 *
 * The policy is read far more often than it changes: whether a session outside the sandbox may take
 * input is asked at every send and for every session in every listing (`dsh_terminal_list`, the
 * status bar, each panel terminal's keystroke), all on the extension host thread every extension
 * shares. Reading the settings means building VS Code's configuration object and inspecting two
 * settings' layers; computing it made sure two folders exist (two file system calls).
 *
 * The rule:
 * - Settings and workspace folders: the policy is computed at its first use after one of the
 *   host's change events (VS Code's `onDidChangeConfiguration` and `onDidChangeWorkspaceFolders`),
 *   never between them. The listener only forgets the policy, synchronously within the event, so
 *   the first use after the event reads the new settings.
 * - Folders on disk: only a session that opens needs its writable folders to exist, so only
 *   `policy('spawn')` looks at the file system: it creates the storage folder again if it was
 *   removed and, when the temp folder is gone (a tmp cleaner removes idle folders), makes a new one
 *   and computes the policy again with it. Every other use (`'check'`) does no file system work.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SandboxPolicy, SandboxSettingValues, sandboxPolicy } from './policy';

/**
 * What a use of the policy is for:
 * - `spawn`: a session opens under it; the folders it names exist when it is returned.
 * - `check`: anything else (whether a session outside the sandbox may take input, a confirmation's
 *   text, the status page): the policy computed last, with no settings or file system read; only
 *   the first use after a change event computes it.
 */
export type SandboxPolicyUse = 'spawn' | 'check';

/** What the policy is computed from, as the host reads it at each computation. */
export interface SandboxHostState {
  /** The settings' raw values (see {@link SandboxSettingValues}). */
  values: SandboxSettingValues;
  /** Absolute paths of the workspace folders (file URIs only). */
  workspaceFolders: string[];
  /** The extension's workspace storage folder, when the host gives one; created when missing. */
  storageFolder?: string;
  /** Absolute path of the open `.code-workspace` file, when there is one. */
  workspaceFile?: string;
}

/**
 * A host event: calls `listener` after each change, synchronously within the change (as VS Code's
 * events do), until the returned subscription is disposed.
 */
export type HostChangeEvent = (listener: () => void) => { dispose(): void };

/** Options of {@link SandboxPolicySource}. */
export interface SandboxPolicySourceOptions {
  /** Where the sandbox temp folder is made (default `os.tmpdir()`). */
  tmpdir?: string;
}

/** The policy in force, computed once per change (see the module comment for the rule). */
export class SandboxPolicySource {
  private cached: { policy: SandboxPolicy; storageFolder?: string } | undefined;
  /** The sandbox temp folder (mode 0700) of this source, made at the first computation. */
  private tempFolder: string | undefined;
  private readonly subscriptions: { dispose(): void }[];

  /**
   * @param read reads the settings and folders now; called only to compute the policy.
   * @param changes the host's events after which `read` may return something else; each one
   *   makes the next use compute the policy again.
   */
  constructor(
    private readonly read: () => SandboxHostState,
    changes: readonly HostChangeEvent[],
    private readonly options: SandboxPolicySourceOptions = {},
  ) {
    this.subscriptions = changes.map((event) => event(() => (this.cached = undefined)));
  }

  /**
   * The policy in force now, for `use` (see {@link SandboxPolicyUse}). Computed at the first use
   * after a change event; a `spawn` also after its temp folder was removed.
   * @throws the file system's error when the temp or storage folder cannot be made (at a
   *   computation or a spawn only).
   */
  policy(use: SandboxPolicyUse = 'check'): SandboxPolicy {
    if (use === 'spawn' && this.cached) {
      if (this.tempFolder === undefined || !fs.existsSync(this.tempFolder)) {
        this.tempFolder = undefined;
        this.cached = undefined;
      } else if (this.cached.storageFolder) fs.mkdirSync(this.cached.storageFolder, { recursive: true });
    }
    this.cached ??= this.compute();
    return this.cached.policy;
  }

  /**
   * Stops listening to the change events and removes the temp folder. A check after this (a
   * listing while the extension host shuts down) gets the last policy, and makes no folder.
   */
  dispose(): void {
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    if (this.tempFolder) fs.rmSync(this.tempFolder, { recursive: true, force: true });
    this.tempFolder = undefined;
  }

  private compute(): { policy: SandboxPolicy; storageFolder?: string } {
    const state = this.read();
    if (state.storageFolder) fs.mkdirSync(state.storageFolder, { recursive: true });
    if (this.tempFolder === undefined || !fs.existsSync(this.tempFolder)) {
      this.tempFolder = fs.mkdtempSync(path.join(this.options.tmpdir ?? os.tmpdir(), 'dsh-bridge-sandbox-'));
    }
    const policy = sandboxPolicy(state.values, {
      workspaceFolders: state.workspaceFolders,
      ...(state.storageFolder ? { storageFolder: state.storageFolder } : {}),
      tempFolder: this.tempFolder,
      ...(state.workspaceFile ? { workspaceFile: state.workspaceFile } : {}),
    });
    return { policy: deepFreeze(policy), ...(state.storageFolder ? { storageFolder: state.storageFolder } : {}) };
  }
}

/** `value` with it and every object and array in it frozen: one policy object is shared by every use. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
