/**
 * VS Code's `chat.tools.terminal.detachBackgroundProcesses` (boolean, default false, restricted):
 * with it on, VS Code's own agent terminals wrap background commands in `nohup` so they survive
 * when VS Code exits. Agent terminals of DSH Bridge follow it: a close that does not say, the
 * owner going away, the window closing and deactivation keep the sessions' background processes
 * running (TerminalService.setKeepByDefault). Read at each close, so a change applies at once.
 * A VS Code that does not register the key (1.100) still returns a value the person set.
 */
import * as vscode from 'vscode';

/** The setting's full key. */
export const DETACH_BACKGROUND_SETTING = 'chat.tools.terminal.detachBackgroundProcesses';

/** True when the person turned `chat.tools.terminal.detachBackgroundProcesses` on (anything else reads as off). */
export function detachBackgroundProcesses(): boolean {
  try {
    return vscode.workspace.getConfiguration().get<unknown>(DETACH_BACKGROUND_SETTING) === true;
  } catch {
    return false;
  }
}
