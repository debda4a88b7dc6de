import * as vscode from 'vscode';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';

/** `dsh_terminal_list`: the caller's sessions with their status, folder and foreground command. */
export class ListTool extends TerminalTool<Record<string, never>> {
  static readonly toolName = 'dsh_terminal_list';

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Listing agent terminals' };
  }

  protected async run() {
    const sessions = this.ctx.service.list(this.ctx.owner).map((s) => ({
      sessionId: s.sessionId,
      name: s.name,
      shell: s.shell,
      cwd: s.cwd,
      sessionStatus: s.sessionStatus,
      busy: s.busy,
      foregroundCommand: s.foregroundCommand,
      sandbox: s.sandbox,
      inputRefused: s.inputRefused,
    }));
    return toolResult({ sessions });
  }
}
