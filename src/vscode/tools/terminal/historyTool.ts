import * as vscode from 'vscode';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_HISTORY } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_history`. */
export type HistoryInput = ToolInput<typeof TERMINAL_HISTORY>;

/**
 * `dsh_terminal_history`: a page of a session's command record (src/terminal/history/commandHistory.ts),
 * newest first: each command with who typed it, how it ended, its cwd and where its output lies.
 * Reads only: no confirmation.
 */
export class HistoryTool extends TerminalTool<HistoryInput> {
  static readonly toolName = TERMINAL_HISTORY.name;

  prepareInvocation({ input }: vscode.LanguageModelToolInvocationPrepareOptions<HistoryInput>): vscode.PreparedToolInvocation {
    const { sessionId } = input;
    return { invocationMessage: new vscode.MarkdownString(`Listing the commands of agent terminal ${escapeMarkdown(String(sessionId))}`) };
  }

  protected async run({ sessionId, offset, count, failed, contains }: HistoryInput) {
    const page = this.ctx.service.history(this.ctx.owner, sessionId, { offset, count, failed, contains });
    return toolResult({ sessionId, ...page });
  }
}
