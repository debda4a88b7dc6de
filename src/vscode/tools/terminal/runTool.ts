import * as vscode from 'vscode';
import { TOOL } from '../../../common/ids';
import { receiverIdentity } from '../../../terminal/types';
import { checkRunCommand, optionalInteger, requireString } from './args';
import { newSessionRunText, sendConfirmationText } from './confirmation';
import { ConfirmedReceivers } from './confirmedReceivers';
import { defaultCwd } from './context';
import { sendResult } from './sendResult';
import { TerminalTool, abortSignal } from './terminalTool';

/** Input of `dsh_run`. */
export interface RunInput {
  command: string;
  timeoutMs?: number;
}

/**
 * `dsh_run`: the plain "run a command" tool, a consumer of the persistent service. It uses the
 * owner's session named `dsh_run`, opening it on first use and again when its shell exited, so
 * state (cwd, variables) carries over between calls like in one terminal.
 */
export class RunTool extends TerminalTool<RunInput> {
  static readonly toolName = TOOL.run;
  static readonly sessionName = 'dsh_run';

  private readonly confirmed = new ConfirmedReceivers();

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunInput>): vscode.PreparedToolInvocation {
    const { command } = options.input;
    const invocationMessage = 'Running a command in the agent terminal';
    let text: string;
    try {
      text = checkRunCommand(command);
    } catch {
      return { invocationMessage }; // refused with the same error when the call runs
    }
    const session = this.defaultSession();
    const target = session && this.target(session.sessionId);
    let message: string;
    if (session && target) {
      this.confirmed.remember([session.sessionId, command], receiverIdentity(target.receiver));
      message = sendConfirmationText({ kind: 'text', text }, session, target);
    } else {
      message = newSessionRunText(text, defaultCwd());
    }
    return { invocationMessage, confirmationMessages: { title: 'Run in the agent terminal?', message: new vscode.MarkdownString(message) } };
  }

  protected async run(input: RunInput & Record<string, unknown>, token: vscode.CancellationToken) {
    const command = requireString(input, 'command');
    checkRunCommand(command);
    const timeoutMs = optionalInteger(input, 'timeoutMs', 1);
    // An earlier dsh_run shell that exited already reported it; it makes way for a new one.
    for (const old of this.ctx.service.list(this.ctx.owner)) {
      if (old.name === RunTool.sessionName && old.sessionStatus.kind === 'exited' && !old.takenOver) {
        await this.ctx.service.close(this.ctx.owner, old.sessionId, 'dsh_run reopens its session');
      }
    }
    const sessionId =
      this.defaultSession()?.sessionId ??
      (await this.ctx.service.open(this.ctx.owner, { name: RunTool.sessionName, cwd: defaultCwd(), signal: abortSignal(token) })).sessionId;
    const expectReceiver = this.confirmed.take([sessionId, command]);
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { input: command, timeoutMs, expectReceiver, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }

  private defaultSession() {
    return this.ctx.service.list(this.ctx.owner).find((s) => s.name === RunTool.sessionName && s.sessionStatus.kind === 'running');
  }
}
