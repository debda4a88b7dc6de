import * as vscode from 'vscode';
import { compileUntil } from '../../../terminal/readiness/untilPattern';
import { escapeMarkdown, inlineCode } from '../markdownText';
import { sendResult } from './sendResult';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_WAIT } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_wait`; `until` is a JavaScript regular expression matched against new output (see untilPattern.ts). */
export type WaitInput = ToolInput<typeof TERMINAL_WAIT>;

/**
 * `dsh_terminal_wait`: keep waiting for a running command without typing anything. After a send
 * returned `timeout` or `inferred_idle` ("I returned for now": the command may still run), the model
 * waits for its next wait reason, exactly as a send would, or for a line it expects (`until`).
 */
export class WaitTool extends TerminalTool<WaitInput> {
  static readonly toolName = TERMINAL_WAIT.name;

  /** Types nothing: no confirmation, as for reading. */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WaitInput>): vscode.PreparedToolInvocation {
    const { sessionId, until } = options.input;
    const pattern = typeof until === 'string' ? ` until output matches ${inlineCode(until.slice(0, 80))}` : '';
    return { invocationMessage: new vscode.MarkdownString(`Waiting for agent terminal ${escapeMarkdown(String(sessionId))}${pattern}`) };
  }

  protected async run({ sessionId, timeoutMs, until: pattern }: WaitInput, token: vscode.CancellationToken) {
    const until = pattern === undefined ? undefined : compileUntil(pattern);
    const r = await this.ctx.service.wait(this.ctx.owner, sessionId, { timeoutMs, until, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }
}
