import * as vscode from 'vscode';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_LIST } from '../../../tools/declarations/terminal';
import { processFields } from './processLists';

/**
 * `dsh_terminal_list`: the caller's sessions with their status, folder and foreground command, the
 * ports their processes listen on and their background processes (found by each session's mark,
 * off the extension host thread, bounded in time).
 */
export class ListTool extends TerminalTool<ToolInput<typeof TERMINAL_LIST>> {
  static readonly toolName = TERMINAL_LIST.name;

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Listing agent terminals' };
  }

  protected async run() {
    const listed = this.ctx.service.list(this.ctx.owner);
    const reports = await Promise.all(listed.map((s) => this.ctx.service.processes(this.ctx.owner, s.sessionId).catch(() => undefined)));
    const sessions = listed.map((s, i) => ({
      sessionId: s.sessionId,
      name: s.name,
      shell: s.shell,
      cwd: s.cwd,
      sessionStatus: s.sessionStatus,
      busy: s.busy,
      foregroundCommand: s.foregroundCommand,
      sandbox: s.sandbox,
      inputRefused: s.inputRefused,
      ...(reports[i] ? processFields(reports[i]) : {}),
    }));
    return toolResult({ sessions });
  }
}
