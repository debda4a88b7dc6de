import * as vscode from 'vscode';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { optionalBoolean, optionalInteger, requireString } from './args';
import { TerminalTool } from './terminalTool';

/** Input of `dsh_terminal_history`. */
export interface HistoryInput {
  sessionId: string;
  offset?: number;
  count?: number;
  /** Only commands that ended with an exit code other than 0. */
  failed?: boolean;
  /** Only commands whose command line contains this text. */
  contains?: string;
}

/**
 * `dsh_terminal_history`: a page of a session's command record (src/terminal/history/commandHistory.ts),
 * newest first: each command with who typed it, how it ended, its cwd and where its output lies.
 * Reads only: no confirmation.
 */
export class HistoryTool extends TerminalTool<HistoryInput> {
  static readonly toolName = 'dsh_terminal_history';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<HistoryInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: new vscode.MarkdownString(`Listing the commands of agent terminal ${escapeMarkdown(String(options.input.sessionId))}`) };
  }

  protected async run(input: HistoryInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const page = this.ctx.service.history(this.ctx.owner, sessionId, {
      offset: optionalInteger(input, 'offset', 0),
      count: optionalInteger(input, 'count', 1),
      failed: optionalBoolean(input, 'failed'),
      contains: input.contains ?? undefined,
    });
    return toolResult({ sessionId, ...page });
  }
}
