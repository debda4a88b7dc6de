import * as vscode from 'vscode';
import { SendInput as TypedInput, checkSendInput } from '../../../terminal/input/input';
import { confirmedIdentity } from '../../../terminal/service';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { sendConfirmationText } from './confirmation';
import { ConfirmedReceivers, unconfirmedError } from './confirmedReceivers';
import { sendResult } from './sendResult';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_SEND } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_send`: exactly one of `input` (text, a newline appended when missing) and `keys` (key names, nothing appended). */
export type SendInput = ToolInput<typeof TERMINAL_SEND>;

/**
 * `dsh_terminal_send`: types text (then Enter) or presses keys in one of the caller's sessions
 * and returns when the terminal says why (see sendResult.ts), or at once with a job id
 * (`background`). The confirmation names the receiver; the send refuses when another program
 * would read the input by the time it runs.
 */
export class SendTool extends TerminalTool<SendInput> {
  static readonly toolName = TERMINAL_SEND.name;

  private readonly confirmed = new ConfirmedReceivers();

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SendInput>): vscode.PreparedToolInvocation {
    const { sessionId, input, keys } = options.input;
    const session = this.session(sessionId);
    const target = session && this.target(session.sessionId);
    let typed: TypedInput;
    try {
      typed = checkSendInput({ input, keys });
    } catch {
      // Refused before anything is typed, with the same error, when the call runs.
      return { invocationMessage: new vscode.MarkdownString(`Sending to agent terminal ${escapeMarkdown(String(sessionId))}`) };
    }
    const verb = typed.kind === 'keys' ? 'Pressing keys in' : 'Sending input to';
    if (!session || !target) {
      return { invocationMessage: new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(String(sessionId))} (no such session)`) };
    }
    this.confirmed.remember([sessionId, input, keys], confirmedIdentity(target));
    const kind = target.receiver.kind;
    const title =
      typed.kind === 'keys'
        ? `Press keys in agent terminal ${session.sessionId}?`
        : kind === 'program'
          ? `Type into a program in agent terminal ${session.sessionId}?`
          : kind === 'exited'
            ? `Send to agent terminal ${session.sessionId}?`
            : `Run in agent terminal ${session.sessionId}?`;
    return {
      invocationMessage: new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(session.sessionId)}`),
      confirmationMessages: { title, message: new vscode.MarkdownString(sendConfirmationText(typed, session, target)) },
    };
  }

  protected async run(input: SendInput, token: vscode.CancellationToken) {
    const { sessionId, timeoutMs } = input;
    const expectReceiver = this.confirmed.take([input.sessionId, input.input, input.keys]);
    if (!expectReceiver) {
      // What is wrong with the call itself is said first.
      checkSendInput({ input: input.input, keys: input.keys });
      this.ctx.service.sendTarget(this.ctx.owner, sessionId);
      throw unconfirmedError(SendTool.toolName, 'typed');
    }
    const request = { input: input.input, keys: input.keys, timeoutMs, expectReceiver };
    if (input.background) {
      const { jobId } = this.ctx.service.startBackground(this.ctx.owner, sessionId, request);
      return toolResult({ sessionId, jobId, background: true, hint: 'read its output with dsh_terminal_output {sessionId, jobId} until done is true' });
    }
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { ...request, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }
}
