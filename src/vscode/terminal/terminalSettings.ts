/**
 * Typed `dsh.terminal.*` settings: read, validated at load and on every change. A bad combination
 * shows one readable error naming the settings and the rule, and the previous valid configuration
 * stays in force (the defaults at first load).
 */
import * as vscode from 'vscode';
import { TERMINAL_SETTINGS_SECTION } from '../../common/ids';
import { DEFAULT_TERMINAL_CONFIG, TerminalConfig, resolveTerminalConfig } from '../../terminal/config';
import { errorMessage } from '../../common/errorMessage';

/** Holds the terminal configuration in force and keeps it current. */
export class TerminalSettings implements vscode.Disposable {
  private current: TerminalConfig = resolveTerminalConfig();
  private readonly listener: vscode.Disposable;

  constructor(private readonly log: vscode.LogOutputChannel) {
    this.reload();
    this.listener = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(TERMINAL_SETTINGS_SECTION)) this.reload();
    });
  }

  /** The configuration in force (always valid). */
  get value(): TerminalConfig {
    return this.current;
  }

  private reload(): void {
    const section = vscode.workspace.getConfiguration(TERMINAL_SETTINGS_SECTION);
    const read: Partial<TerminalConfig> = {};
    for (const key of Object.keys(DEFAULT_TERMINAL_CONFIG) as (keyof TerminalConfig)[]) {
      (read as Record<string, unknown>)[key] = section.get(key);
    }
    try {
      this.current = resolveTerminalConfig(read);
      this.log.info('terminal settings loaded');
    } catch (error) {
      this.log.error(`terminal settings rejected, previous configuration kept: ${errorMessage(error)}`);
      void vscode.window
        .showErrorMessage(`DSH Bridge: ${errorMessage(error)}. The previous terminal settings stay in force.`, 'Open Settings')
        .then((pick) => {
          if (pick) void vscode.commands.executeCommand('workbench.action.openSettings', TERMINAL_SETTINGS_SECTION);
        });
    }
  }

  dispose(): void {
    this.listener.dispose();
  }
}
