import * as vscode from 'vscode';
import { closeAgentSession } from '../../terminal/agentTerminals';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { closeFields } from './processLists';
import { closeConfirmationText } from './confirmation';
import { detachBackgroundProcesses } from '../../terminal/backgroundSettings';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_CLOSE } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_close`. */
export type CloseInput = ToolInput<typeof TERMINAL_CLOSE>;

/**
 * `dsh_terminal_close`: ends a session's shell and every process it started; a session the person
 * has taken over closes only with their confirmation (`closeAgentSession`).
 */
export class CloseTool extends TerminalTool<CloseInput> {
  static readonly toolName = TERMINAL_CLOSE.name;

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CloseInput>): vscode.PreparedToolInvocation {
    const { sessionId } = options.input;
    // The confirmation says what the close will do: without `keep`, the person's detachBackgroundProcesses decides.
    const keep = typeof options.input.keep === 'boolean' ? options.input.keep : detachBackgroundProcesses();
    const session = this.session(sessionId);
    const where = session && this.target(session.sessionId);
    const id = session ? session.sessionId : 'unknown session';
    return {
      invocationMessage: new vscode.MarkdownString(`Closing agent terminal ${escapeMarkdown(String(sessionId))}`),
      confirmationMessages: {
        title: keep === true ? `Close agent terminal ${id}, keeping its background processes?` : `Close agent terminal ${id}?`,
        message: new vscode.MarkdownString(closeConfirmationText(sessionId, session, where, keep === true)),
      },
    };
  }

  protected async run({ sessionId, keep }: CloseInput) {
    const outcome = await closeAgentSession(this.ctx, sessionId, 'closed by dsh_terminal_close', 'the agent (dsh_terminal_close)', keep);
    return toolResult({ sessionId, closed: outcome.closed, ...closeFields(outcome) });
  }
}
