import { OpenAdmissions } from '../../../terminal/ownerLimits';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { PATH_QUOTE_UNITS, quoteInput } from '../../../common/quoteInput';
import { CallConsents, callKey } from '../../../common/callConsents';
import { TerminalError } from '../../../terminal/errors';
import { askEveryTime } from '../askEveryTime';
import { escapeMarkdown } from '../markdownText';
import { ConfirmedReceivers, unconfirmedError } from './confirmedReceivers';
import { OpenFolder, confirmedOpenFolder, openFolderText, resolveOpenFolder } from './openFolder';
import { outsideSandboxText, sandboxText } from './confirmation';
import { toolResult } from '../toolResult';
import { defaultCwd, newSessionSandbox } from './context';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_OPEN } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_open`; `sandbox: false` asks the person for a session outside the agent sandbox (see {@link OpenTool}). */
export type OpenInput = ToolInput<typeof TERMINAL_OPEN>;
import { DRIVEN_SHELLS, type ShellName } from '../../../terminal/session/shellDialect';
import type { ShellChoice } from '../../../terminal/shellChoice';

/** What identifies an open call between its confirmation and its run. */
const openCall = (input: OpenInput) => [input.name, input.shell, input.cwd, input.sandbox];

/** How long a confirmed request for a session outside the sandbox waits for its call, in ms. */
const OUTSIDE_CONSENT_TTL_MS = 10 * 60_000;
/** The subject of a consent to open a session outside the sandbox. */
const OUTSIDE = 'outside the agent sandbox';

/**
 * `dsh_terminal_open`: starts a bash or zsh session (the `shell` asked for, else the person's
 * choice: shellChoice.ts) for the caller's owner, in `cwd` or the first
 * workspace folder, and returns `{sessionId, name, cwd, sessionStatus, sandbox}` with the text the
 * shell printed before its first prompt as a second part.
 *
 * `sandbox: false` while the agent sandbox is on asks for a session outside it: allowed only where
 * the policy allows asking (`chat.agent.sandbox.allowUnsandboxedCommands` true, not locked by
 * organisation policy), and only with the person's confirmation of this very call: the confirmation
 * `prepareInvocation` returns says "outside the sandbox" and is marked to be asked every time
 * (the MCP approval never skips it); `invoke` uses the consent recorded there once. Nothing else a
 * model supplies turns the sandbox off.
 */
export class OpenTool extends TerminalTool<OpenInput> {
  static readonly toolName = TERMINAL_OPEN.name;
  private readonly consents = new CallConsents(OUTSIDE_CONSENT_TTL_MS);
  /** The folder each confirmation named (none: the home folder). */
  private readonly shownFolders = new ConfirmedReceivers<{ folder?: OpenFolder }>();
  /** Opens admitted at their confirmation and not started yet (ownerLimits.ts). */
  private readonly admissions = new OpenAdmissions();

  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<OpenInput>): Promise<vscode.PreparedToolInvocation> {
    const { name, cwd, sandbox } = options.input;
    // A relative cwd is refused when the call runs: nothing to confirm.
    if (typeof cwd === 'string' && !path.isAbsolute(cwd))
      return { invocationMessage: 'Opening an agent terminal (refused: cwd is not an absolute path)' };
    // Decided before anything awaits: past the owner's session limit (admitted opens counted) the
    // call is refused at once, with nothing to confirm, and its run throws the refusal.
    const refused = this.admissions.admit(JSON.stringify(openCall(options.input)), (admitted) =>
      this.ctx.service.sessionLimitRefusal(this.ctx.owner, admitted),
    );
    if (refused)
      return {
        invocationMessage:
          'Opening an agent terminal (refused: this caller has as many sessions as dsh.terminal.maxSessionsPerOwner allows)',
      };
    const given = typeof cwd === 'string' ? cwd : defaultCwd();
    const stated = given === undefined ? undefined : await resolveOpenFolder(given);
    this.shownFolders.remember(openCall(options.input), { folder: stated });
    const folder = stated ? openFolderText(stated) : 'your home folder';
    const named = typeof name === 'string' && name ? ` named ${escapeMarkdown(name)}` : '';
    const policy = sandbox === false ? this.ctx.sandboxPolicy?.() : undefined;
    if (policy?.on) {
      if (!policy.unsandboxed.allowed)
        return { invocationMessage: `Opening an agent terminal outside the sandbox: refused (${policy.unsandboxed.why})` };
      this.consents.record(callKey(options.input), OUTSIDE);
      return {
        invocationMessage: new vscode.MarkdownString(`Opening an agent terminal${named} outside the sandbox`),
        confirmationMessages: askEveryTime({
          title: 'Open an agent terminal outside the sandbox?',
          message: new vscode.MarkdownString(outsideSandboxText(folder, named, policy.reason, policy.unsandboxed.why)),
        }),
      };
    }
    const newSandbox = newSessionSandbox(this.ctx);
    const shell = DRIVEN_SHELLS.includes(options.input.shell as ShellName)
      ? options.input.shell
      : (this.ctx.shellChoice?.().shell ?? 'bash');
    return {
      invocationMessage: new vscode.MarkdownString(`Opening an agent terminal${named}`),
      confirmationMessages: {
        title: 'Open an agent terminal?',
        message: new vscode.MarkdownString(
          `Start a ${shell} session${named} the agent can type into, in ${folder}.${newSandbox ? `\n\n${sandboxText(newSandbox)}` : ''}`,
        ),
      },
    };
  }

  protected async run(input: OpenInput, token: vscode.CancellationToken) {
    const refused = this.admissions.take(JSON.stringify(openCall(input)));
    if (refused) throw refused;
    if (input.cwd !== undefined && !path.isAbsolute(input.cwd)) {
      throw new TerminalError(
        'INVALID_ARGUMENT',
        `cwd ${quoteInput(input.cwd, PATH_QUOTE_UNITS)} is not an absolute path; give an absolute path to a folder, or omit cwd for the workspace folder`,
      );
    }
    const grant = input.sandbox === false ? this.outsideGrant(input) : {};
    const stated = this.shownFolders.take(openCall(input));
    if (!stated) throw unconfirmedError(OpenTool.toolName, 'opened');
    // The folder the confirmation named, where it led then (see openFolder.ts).
    const cwd = stated.folder && (await confirmedOpenFolder(stated.folder));
    const shell = sessionShell(input.shell, this.ctx.shellChoice?.());
    const info = await this.ctx.service.open(
      this.ctx.owner,
      {
        name: input.name,
        cwd,
        exactCwd: cwd !== undefined,
        backend: `pty-${shell.name}`,
        shellPath: shell.executable,
        signal: abortSignal(token),
      },
      grant,
    );
    const motd = this.ctx.service.motd(this.ctx.owner, info.sessionId);
    return toolResult(
      {
        sessionId: info.sessionId,
        name: info.name,
        shell: { name: shell.name, why: shell.why },
        cwd: info.cwd,
        sessionStatus: info.sessionStatus,
        sandbox: info.sandbox,
      },
      motd || undefined,
    );
  }

  /**
   * The grant of a `sandbox: false` call: none needed while the sandbox is off (every session runs
   * outside it); while it is on, the policy must allow asking and this call's confirmation must
   * have been shown (its consent is used here).
   * @throws TerminalError SANDBOX_REQUIRED saying why and what would allow it.
   */
  private outsideGrant(input: OpenInput): { outsideSandbox?: boolean } {
    const policy = this.ctx.sandboxPolicy?.();
    if (!policy?.on) return {};
    if (!policy.unsandboxed.allowed)
      throw new TerminalError(
        'SANDBOX_REQUIRED',
        `no session was opened outside the agent sandbox: ${policy.unsandboxed.why}. Open the session without sandbox: false to run inside the sandbox`,
      );
    if (!this.consents.consume(callKey(input), OUTSIDE)) {
      throw new TerminalError(
        'SANDBOX_REQUIRED',
        "no session was opened outside the agent sandbox: that needs the person's confirmation of this very call, and none was asked for it. Call dsh_terminal_open with sandbox: false again so the person is asked, or open the session in the sandbox",
      );
    }
    return { outsideSandbox: true };
  }
}

/**
 * The shell an open runs: the one the call asked for (at the executable the person's settings name
 * for it, if they name that shell), else the person's choice, else bash.
 */
export function sessionShell(
  asked: ShellName | undefined,
  choice: ShellChoice | undefined,
): { name: ShellName; executable: string; why: string } {
  if (asked !== undefined) {
    const executable = choice?.shell === asked ? choice.executable : asked;
    return {
      name: asked,
      executable,
      why: `${asked}: asked for by this call${choice && choice.shell !== asked ? ` (the person's settings choose ${choice.why})` : ''}`,
    };
  }
  if (choice) return { name: choice.shell, executable: choice.executable, why: choice.why };
  return { name: 'bash', executable: 'bash', why: 'bash: the default' };
}
