import * as vscode from 'vscode';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_OUTPUT } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_output`. */
export type OutputInput = ToolInput<typeof TERMINAL_OUTPUT>;

/** `dsh_terminal_output`: the output a background send produced since the last look, and whether it is done. */
export class OutputTool extends TerminalTool<OutputInput> {
  static readonly toolName = TERMINAL_OUTPUT.name;

  prepareInvocation({ input }: vscode.LanguageModelToolInvocationPrepareOptions<OutputInput>): vscode.PreparedToolInvocation {
    const { jobId, sessionId } = input;
    return {
      invocationMessage: new vscode.MarkdownString(
        `Reading new output of ${escapeMarkdown(String(jobId))} in agent terminal ${escapeMarkdown(String(sessionId))}`,
      ),
    };
  }

  protected async run({ sessionId, jobId }: OutputInput) {
    const { text, ...json } = await this.ctx.service.output(this.ctx.owner, sessionId, jobId);
    return toolResult({ sessionId, ...json }, text);
  }
}
