import * as vscode from 'vscode';
import { TerminalError } from '../../../terminal/errors';
import { escapeMarkdown, inlineCode } from '../markdownText';
import { toolResult } from '../toolResult';
import { defaultCwd } from './context';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';

/** Input of `dsh_terminal_open`. */
export interface OpenInput {
  name?: string;
  cwd?: string;
}

/**
 * `dsh_terminal_open`: starts a bash session for the caller's owner, in `cwd` or the first
 * workspace folder, and returns `{sessionId, name, cwd, sessionStatus}` with the text the shell
 * printed before its first prompt as a second part.
 */
export class OpenTool extends TerminalTool<OpenInput> {
  static readonly toolName = 'dsh_terminal_open';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<OpenInput>): vscode.PreparedToolInvocation {
    const { name, cwd } = options.input;
    const folder = typeof cwd === 'string' ? inlineCode(cwd) : (defaultCwd() && inlineCode(defaultCwd()!)) ?? 'your home folder';
    const named = typeof name === 'string' && name ? ` named ${escapeMarkdown(name)}` : '';
    return {
      invocationMessage: new vscode.MarkdownString(`Opening an agent terminal${named}`),
      confirmationMessages: {
        title: 'Open an agent terminal?',
        message: new vscode.MarkdownString(`Start a bash session${named} the agent can type into, in ${folder}.`),
      },
    };
  }

  protected async run(input: OpenInput & Record<string, unknown>, token: vscode.CancellationToken) {
    if (input.name !== undefined && typeof input.name !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'name must be a string');
    if (input.cwd !== undefined && typeof input.cwd !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'cwd must be a string: an absolute folder path');
    const info = await this.ctx.service.open(this.ctx.owner, { name: input.name, cwd: input.cwd ?? defaultCwd(), signal: abortSignal(token) });
    const motd = this.ctx.service.motd(this.ctx.owner, info.sessionId);
    return toolResult({ sessionId: info.sessionId, name: info.name, cwd: info.cwd, sessionStatus: info.sessionStatus }, motd || undefined);
  }
}
