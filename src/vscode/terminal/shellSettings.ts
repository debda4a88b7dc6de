/**
 * The shell settings read at each open: what the shell choice reads (terminal/shellChoice.ts: the
 * person's `dsh.terminal.shell`, VS Code's agent terminal profile, the default terminal profile,
 * `$SHELL`), and whether agent commands stay out of the person's history file.
 */
import * as vscode from 'vscode';
import { TERMINAL_SETTINGS_SECTION } from '../../common/ids';
import { chooseShell, type ShellChoice, type TerminalProfileSetting } from '../../terminal/shellChoice';

/** VS Code's name of this platform in terminal settings (`terminal.integrated.profiles.<os>`). */
function osKey(): 'osx' | 'windows' | 'linux' {
  return process.platform === 'darwin' ? 'osx' : process.platform === 'win32' ? 'windows' : 'linux';
}

/** A setting's value when it is an object, else undefined (a wrong type counts as unset). */
function objectSetting<T>(value: unknown): T | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as T) : undefined;
}

/** The shell a session opened now gets, and why (see chooseShell). */
export function currentShellChoice(): ShellChoice {
  const os = osKey();
  const configured = vscode.workspace.getConfiguration(TERMINAL_SETTINGS_SECTION).get<unknown>('shell');
  const chat = vscode.workspace.getConfiguration('chat.tools.terminal');
  const terminal = vscode.workspace.getConfiguration('terminal.integrated');
  const defaultProfile = terminal.get<unknown>(`defaultProfile.${os}`);
  return chooseShell({
    configured: typeof configured === 'string' ? configured : undefined,
    agentProfile: objectSetting<TerminalProfileSetting>(chat.get<unknown>(`terminalProfile.${os}`)),
    defaultProfile: typeof defaultProfile === 'string' ? defaultProfile : undefined,
    profiles: objectSetting<Record<string, TerminalProfileSetting>>(terminal.get<unknown>(`profiles.${os}`)),
    envShell: process.env.SHELL,
  });
}

/**
 * VS Code's `chat.tools.terminal.preventShellHistory` (default true: agent commands never reach the
 * person's history file); true where VS Code does not register it (1.100) or it is not a boolean.
 */
export function preventShellHistory(): boolean {
  return vscode.workspace.getConfiguration('chat.tools.terminal').get<unknown>('preventShellHistory') !== false;
}
