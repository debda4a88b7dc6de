import * as vscode from 'vscode';
import { closeAgentSession } from '../../terminal/agentTerminals';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { requireString } from './args';
import { closeConfirmationText } from './confirmation';
import { TerminalTool } from './terminalTool';

/** Input of `dsh_terminal_close`. */
export interface CloseInput {
  sessionId: string;
}

/**
 * `dsh_terminal_close`: ends a session's shell and every process it started; a session the person
 * has taken over closes only with their confirmation (`closeAgentSession`).
 */
export class CloseTool extends TerminalTool<CloseInput> {
  static readonly toolName = 'dsh_terminal_close';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CloseInput>): vscode.PreparedToolInvocation {
    const { sessionId } = options.input;
    const session = this.session(sessionId);
    const where = session && this.target(session.sessionId);
    const id = session ? session.sessionId : 'unknown session';
    return {
      invocationMessage: new vscode.MarkdownString(`Closing agent terminal ${escapeMarkdown(String(sessionId))}`),
      confirmationMessages: {
        title: `Close agent terminal ${id}?`,
        message: new vscode.MarkdownString(closeConfirmationText(sessionId, session, where)),
      },
    };
  }

  protected async run(input: CloseInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const closed = await closeAgentSession(this.ctx, sessionId, 'closed by dsh_terminal_close', 'the agent (dsh_terminal_close)');
    return toolResult({ sessionId, closed });
  }
}
