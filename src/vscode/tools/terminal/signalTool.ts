import * as vscode from 'vscode';
import { ALLOWED_SIGNALS, receiverIdentity } from '../../../terminal/types';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { signalConfirmationText } from './confirmation';
import { ConfirmedReceivers, unconfirmedError } from './confirmedReceivers';
import { checkSignalName } from '../../../terminal/input/sendAdmission';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_SIGNAL } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_signal`. */
export type SignalInput = ToolInput<typeof TERMINAL_SIGNAL>;

/**
 * `dsh_terminal_signal`: delivers one of ALLOWED_SIGNALS to a session's foreground process group
 * and returns once it took effect. The confirmation names the foreground program; the signal is
 * refused when another process group is in the foreground by the time it runs (a program that
 * ended leaves the shell there, which SIGKILL or SIGHUP would end).
 */
export class SignalTool extends TerminalTool<SignalInput> {
  static readonly toolName = TERMINAL_SIGNAL.name;

  private readonly confirmed = new ConfirmedReceivers();

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SignalInput>): vscode.PreparedToolInvocation {
    const { sessionId, signal } = options.input;
    const session = this.session(sessionId);
    const where = session && this.target(session.sessionId);
    const id = session ? session.sessionId : 'unknown session';
    const name = (ALLOWED_SIGNALS as readonly unknown[]).includes(signal) ? signal : 'a signal';
    if (session && where) this.confirmed.remember([sessionId, signal], receiverIdentity(where.receiver));
    return {
      invocationMessage: new vscode.MarkdownString(
        `Sending ${escapeMarkdown(String(signal))} to agent terminal ${escapeMarkdown(String(sessionId))}`,
      ),
      confirmationMessages: {
        title: `Send ${name} in agent terminal ${id}?`,
        message: new vscode.MarkdownString(signalConfirmationText(signal, session, where)),
      },
    };
  }

  protected async run({ sessionId, signal }: SignalInput) {
    const confirmed = this.confirmed.take([sessionId, signal]);
    if (!confirmed) {
      // What is wrong with the call itself is said first.
      checkSignalName(signal);
      this.ctx.service.sendTarget(this.ctx.owner, sessionId);
      throw unconfirmedError(SignalTool.toolName, 'delivered');
    }
    const r = this.ctx.service.signal(this.ctx.owner, sessionId, signal, confirmed);
    // Returns once the signal took effect, so the next send's confirmation names who reads then
    // (the shell back at its prompt, or the program reading again), not the program that is ending.
    if (r.delivered) await this.ctx.service.settled(this.ctx.owner, sessionId);
    return toolResult({ sessionId, ...r });
  }
}
