import * as vscode from 'vscode';
import { TerminalError } from '../../../terminal/errors';
import { confirmedIdentity } from '../../../terminal/service';
import type { ReceiverIdentity } from '../../../terminal/types';
import { checkRunCommand } from './runCommand';
import { newSessionRunText, sendConfirmationText } from './confirmation';
import { ConfirmedReceivers, unconfirmedError } from './confirmedReceivers';
import { defaultCwd, newSessionSandbox } from './context';
import { sendResult } from './sendResult';
import { sessionOf } from './sessionOf';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import { Approval, approvalLabel, judgeSend } from './autoApproval';
import type { ToolInput } from '../../../tools/declaration';
import { RUN } from '../../../tools/declarations/terminal';

/** Input of `dsh_run`. */
export type RunInput = ToolInput<typeof RUN>;

/**
 * Where a confirmed dsh_run was shown to go: the shell of an open session (with its receiver), or
 * a new session (`sessionId` undefined).
 */
interface ConfirmedRun {
  sessionId?: string;
  receiver?: ReceiverIdentity;
  /** Set when the run needs no confirmation: who let it. */
  approval?: Approval;
}

/**
 * `dsh_run`: the plain "run a command" tool, a consumer of the persistent service. It uses the
 * owner's session named `dsh_run`, opening it on first use and again when its shell exited, so
 * state (cwd, variables) carries over between calls like in one terminal. A `dsh_run` session that
 * refuses input (it runs outside the agent sandbox, which is on now) is left as it is, readable and
 * listed, and a new one opens inside the sandbox.
 */
export class RunTool extends TerminalTool<RunInput> {
  static readonly toolName = RUN.name;
  static readonly sessionName = 'dsh_run';

  private readonly confirmed = new ConfirmedReceivers<ConfirmedRun>();

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunInput>): Promise<vscode.PreparedToolInvocation> {
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
    const typed = { kind: 'text' as const, text };
    if (session && target) {
      const judged = await judgeSend(this.ctx.approval, typed, { kind: 'session', target }, session.sandbox);
      this.confirmed.remember([command], {
        sessionId: session.sessionId,
        receiver: confirmedIdentity(target),
        ...(judged.approval ? { approval: judged.approval } : {}),
      });
      if (judged.approval) return { invocationMessage };
      message = `${sendConfirmationText(typed, session, target)}\n\n${judged.note}`;
    } else {
      const sandbox = newSessionSandbox(this.ctx);
      const judged = await judgeSend(this.ctx.approval, typed, { kind: 'new-session', cwd: defaultCwd() }, sandbox);
      this.confirmed.remember([command], judged.approval ? { approval: judged.approval } : {});
      if (judged.approval) return { invocationMessage };
      message = `${newSessionRunText(text, defaultCwd(), sandbox)}\n\n${judged.note}`;
    }
    return {
      invocationMessage,
      confirmationMessages: { title: 'Run in the agent terminal?', message: new vscode.MarkdownString(message) },
    };
  }

  protected async run({ command, timeoutMs }: RunInput, token: vscode.CancellationToken, grant?: 'client') {
    checkRunCommand(command);
    const confirmed = this.confirmed.take([command]);
    if (!confirmed) throw unconfirmedError(RunTool.toolName, 'run');
    const sessions = this.ctx.service.list(this.ctx.owner);
    // Before anything changes: an exited shell the model was not told about stays readable.
    let existing = this.defaultSession(sessions)?.sessionId;
    checkSameSession(confirmed, existing);
    // An earlier dsh_run shell that exited already reported it; it makes way for a new one.
    const exited = sessions.filter((old) => old.name === RunTool.sessionName && old.sessionStatus.kind === 'exited' && !old.takenOver);
    for (const old of exited) await this.ctx.service.close(this.ctx.owner, old.sessionId, 'dsh_run reopens its session');
    if (exited.length > 0) {
      // Again after the closes: another call may have opened the session meanwhile.
      existing = this.defaultSession()?.sessionId;
      checkSameSession(confirmed, existing);
    }
    const signal = abortSignal(token);
    const sessionId =
      existing ?? (await this.ctx.service.open(this.ctx.owner, { name: RunTool.sessionName, cwd: defaultCwd(), signal })).sessionId;
    const approval: Approval = confirmed.approval ?? (grant ? { by: grant } : { by: 'person' });
    if (approval.by === 'rule') await this.checkStillApproved(sessionId, checkRunCommand(command));
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, {
      input: command,
      timeoutMs,
      expectReceiver: confirmed.receiver,
      signal,
      origin: 'dsh_run',
      approvedBy: approvalLabel(approval),
    });
    return sendResult(sessionId, r, sessionOf(this.ctx, sessionId)?.sandbox, approval);
  }

  /**
   * Judges a run the rules approved when it was prepared again, right before it is typed (an alias
   * or function defined since must not run under the rule).
   * @throws TerminalError RECEIVER_CHANGED (nothing run) when the rules no longer approve it.
   */
  private async checkStillApproved(sessionId: string, command: string): Promise<void> {
    const session = sessionOf(this.ctx, sessionId);
    const target = session && this.target(sessionId);
    const again = target
      ? await judgeSend(this.ctx.approval, { kind: 'text', text: command }, { kind: 'session', target }, session.sandbox)
      : undefined;
    if (again?.approval?.by === 'rule') return;
    throw new TerminalError(
      'RECEIVER_CHANGED',
      `nothing was run: the terminal auto-approve rules approved this command when it was prepared, but no longer do (${again?.decision?.reasons.join('; ') ?? again?.note ?? 'the session is gone'}). Call ${RunTool.toolName} again`,
    );
  }

  /** The running `dsh_run` session that takes input among `sessions` (the owner's now by default), if any. */
  private defaultSession(sessions = this.ctx.service.list(this.ctx.owner)) {
    return sessions.find((s) => s.name === RunTool.sessionName && s.sessionStatus.kind === 'running' && s.inputRefused === undefined);
  }
}

/**
 * Refuses a dsh_run whose confirmation named another shell than the one it would type into now:
 * the confirmed session's shell exited since (a new one would open, in another folder), or a new
 * session was confirmed and one is open since. `current` is the running dsh_run session, if any.
 * @throws TerminalError RECEIVER_CHANGED naming both; nothing is typed.
 */
function checkSameSession(confirmed: ConfirmedRun, current: string | undefined): void {
  if (confirmed.sessionId === current) return;
  const now = current ? `it would go to session ${current}, opened since` : 'dsh_run would open a new session';
  const was = confirmed.sessionId ? `the shell of session ${confirmed.sessionId}, which has exited since` : 'a new session';
  throw new TerminalError(
    'RECEIVER_CHANGED',
    `nothing was run: the confirmation named ${was}, but ${now}. Call dsh_run again to confirm where it runs`,
  );
}
