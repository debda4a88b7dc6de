/**
 * "DSH: Kept Agent Processes" (`dsh.terminal.keptProcesses`): the processes agent terminals left
 * running when they closed (`keep`, or VS Code's `chat.tools.terminal.detachBackgroundProcesses`),
 * with the ports they listen on, the session that started them and when it closed; the person
 * picks any to stop (SIGTERM, then SIGKILL). Only processes a close recorded as kept, and only
 * while each is the same process (its start time), can be stopped from here.
 */
import * as vscode from 'vscode';
import { COMMAND } from '../../common/ids';
import { visibleText } from '../../terminal/input/input';
import { describeSocket } from '../../proc/listeningSockets';
import type { KeptEntry } from '../../terminal/session/keptProcesses';
import type { TerminalService } from '../../terminal/service';

/** Registers the command; it resolves with the kept processes it showed (an empty list when none). */
export function registerKeptProcessesCommand(service: TerminalService): vscode.Disposable {
  return vscode.commands.registerCommand(COMMAND.keptProcesses, async (): Promise<KeptEntry[]> => {
    const kept = await service.kept.list();
    if (kept.length === 0) {
      void vscode.window.showInformationMessage('DSH Bridge: no process of a closed agent terminal was kept running.');
      return kept;
    }
    const items = kept.map((entry) => ({
      label: visibleText(entry.command),
      description: `pid ${entry.pid}${entry.listening ? ` · listening ${entry.listening.map((s) => visibleText(describeSocket(s))).join(', ')}` : ''}`,
      detail: `from ${entry.sessionId} (${visibleText(entry.sessionName)}), closed ${new Date(entry.keptAt).toLocaleTimeString()}`,
      entry,
    }));
    const picked = await vscode.window.showQuickPick(items, {
      canPickMany: true,
      title: 'Processes agent terminals left running',
      placeHolder: 'Pick the ones to stop (SIGTERM, then SIGKILL)',
    });
    if (!picked || picked.length === 0) return kept;
    const outcomes = await Promise.all(
      picked.map(async ({ entry }) => `${entry.pid}: ${await service.kept.stop(entry.pid, entry.startTime)}`),
    );
    void vscode.window.showInformationMessage(`DSH Bridge: ${outcomes.join(', ')}.`);
    return kept;
  });
}
