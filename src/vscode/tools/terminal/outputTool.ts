import * as vscode from 'vscode';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { requireString } from './args';
import { TerminalTool } from './terminalTool';

/** Input of `dsh_terminal_output`. */
export interface OutputInput {
  sessionId: string;
  jobId: string;
}

/** `dsh_terminal_output`: the output a background send produced since the last look, and whether it is done. */
export class OutputTool extends TerminalTool<OutputInput> {
  static readonly toolName = 'dsh_terminal_output';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<OutputInput>): vscode.PreparedToolInvocation {
    return {
      invocationMessage: new vscode.MarkdownString(`Reading new output of ${escapeMarkdown(String(options.input.jobId))} in agent terminal ${escapeMarkdown(String(options.input.sessionId))}`),
    };
  }

  protected async run(input: OutputInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const { text, ...json } = await this.ctx.service.output(this.ctx.owner, sessionId, requireString(input, 'jobId'));
    return toolResult({ sessionId, ...json }, text);
  }
}
