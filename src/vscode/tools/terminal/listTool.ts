import * as vscode from 'vscode';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_LIST } from '../../../tools/declarations/terminal';

/** `dsh_terminal_list`: the caller's sessions with their status, folder and foreground command. */
export class ListTool extends TerminalTool<ToolInput<typeof TERMINAL_LIST>> {
  static readonly toolName = TERMINAL_LIST.name;

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Listing agent terminals' };
  }

  protected async run() {
    const sessions = this.ctx.service.list(this.ctx.owner).map((s) => ({
      sessionId: s.sessionId,
      name: s.name,
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
