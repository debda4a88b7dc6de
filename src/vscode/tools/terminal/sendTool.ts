import * as vscode from 'vscode';
import { TerminalError } from '../../../terminal/errors';
import { SendInput as TypedInput, checkSendInput } from '../../../terminal/input/input';
import { confirmedIdentity } from '../../../terminal/service';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { sendConfirmationText } from './confirmation';
import { ConfirmedReceivers, unconfirmedError } from './confirmedReceivers';
import { sendResult } from './sendResult';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import { Approval, approvalLabel, judgeSend } from './autoApproval';
import type { ReceiverIdentity } from '../../../terminal/types';

/** What a prepared send keeps until it runs: the receiver shown (or judged) and, when it runs without asking, who let it. */
interface ConfirmedSend {
  receiver: ReceiverIdentity;
  approval?: Approval;
}
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

  private readonly confirmed = new ConfirmedReceivers<ConfirmedSend>();

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SendInput>): Promise<vscode.PreparedToolInvocation> {
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
      return {
        invocationMessage: new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(String(sessionId))} (no such session)`),
      };
    }
    const judged = await judgeSend(this.ctx.approval, typed, { kind: 'session', target }, session.sandbox);
    const invocationMessage = new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(session.sessionId)}`);
    this.confirmed.remember([sessionId, input, keys], {
      receiver: confirmedIdentity(target),
      ...(judged.approval ? { approval: judged.approval } : {}),
    });
    // Approved without asking: VS Code runs a call whose preparation has no confirmation messages.
    if (judged.approval) return { invocationMessage };
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
      invocationMessage,
      confirmationMessages: {
        title,
        message: new vscode.MarkdownString(`${sendConfirmationText(typed, session, target)}\n\n${judged.note}`),
      },
    };
  }

  protected async run(input: SendInput, token: vscode.CancellationToken, grant?: 'client') {
    const { sessionId, timeoutMs } = input;
    const confirmed = this.confirmed.take([input.sessionId, input.input, input.keys]);
    if (!confirmed) {
      // What is wrong with the call itself is said first.
      checkSendInput({ input: input.input, keys: input.keys });
      this.ctx.service.sendTarget(this.ctx.owner, sessionId);
      throw unconfirmedError(SendTool.toolName, 'typed');
    }
    const approval: Approval = confirmed.approval ?? (grant ? { by: grant } : { by: 'person' });
    if (approval.by === 'rule') await this.checkStillApproved(sessionId, checkSendInput({ input: input.input, keys: input.keys }));
    const request = {
      input: input.input,
      keys: input.keys,
      timeoutMs,
      expectReceiver: confirmed.receiver,
      approvedBy: approvalLabel(approval),
    };
    if (input.background) {
      const { jobId } = this.ctx.service.startBackground(this.ctx.owner, sessionId, request);
      return toolResult({
        sessionId,
        jobId,
        background: true,
        approval,
        hint: 'read its output with dsh_terminal_output {sessionId, jobId} until done is true',
      });
    }
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { ...request, signal: abortSignal(token) });
    return sendResult(sessionId, r, undefined, approval);
  }

  /**
   * Judges a send the rules approved when it was prepared again, right before it is typed: an
   * alias or function defined since (by a call that ran in between) must not run under the rule.
   * @throws TerminalError RECEIVER_CHANGED (nothing typed) when the rules no longer approve it.
   */
  private async checkStillApproved(sessionId: string, typed: TypedInput): Promise<void> {
    const session = this.session(sessionId);
    const target = session && this.target(sessionId);
    const again = target ? await judgeSend(this.ctx.approval, typed, { kind: 'session', target }, session.sandbox) : undefined;
    if (again?.approval?.by === 'rule') return;
    throw new TerminalError(
      'RECEIVER_CHANGED',
      `nothing was typed: the terminal auto-approve rules approved this input when it was prepared, but no longer do (${again?.decision?.reasons.join('; ') ?? again?.note ?? 'the session is gone'}). Call ${SendTool.toolName} again`,
    );
  }
}
