/**
 * The base of every terminal tool: the trust and availability checks on every call, then the
 * tool's own `run`; plus what the tools share to act on the service (a call's AbortSignal, the
 * caller's view of a session, where a send would go).
 */
import { TerminalError } from '../../../terminal/errors';
import * as vscode from 'vscode';
import type { SendTarget } from '../../../terminal/service';
import type { SessionInfo } from '../../../terminal/session/publishedSession';
import type { TerminalToolContext } from './context';
import { sessionOf } from './sessionOf';
import { grantOf } from '../approvalGrant';
import { TERMINAL_SETTINGS_SECTION } from '../../../common/ids';
import { redactShortText } from '../../../terminal/secrets/secretRedactor';

/** Said in every terminal tool result while `dsh.terminal.redactSecrets` is off. */
export const REDACTION_OFF_NOTICE =
  'off: the setting dsh.terminal.redactSecrets is false, so this result may hold secrets (tokens, keys, passwords) as the terminal printed them';

/** `result` with `secretRedaction` (REDACTION_OFF_NOTICE) in its JSON part, the first. */
function withRedactionOffNotice(result: vscode.LanguageModelToolResult): vscode.LanguageModelToolResult {
  const [first, ...rest] = result.content as (vscode.LanguageModelTextPart | vscode.LanguageModelPromptTsxPart)[];
  let json: Record<string, unknown> = {};
  if (first instanceof vscode.LanguageModelTextPart) {
    try {
      json = JSON.parse(first.value) as Record<string, unknown>;
    } catch {
      return new vscode.LanguageModelToolResult([
        new vscode.LanguageModelTextPart(JSON.stringify({ secretRedaction: REDACTION_OFF_NOTICE })),
        first,
        ...rest,
      ]);
    }
  }
  return new vscode.LanguageModelToolResult([
    new vscode.LanguageModelTextPart(JSON.stringify({ ...json, secretRedaction: REDACTION_OFF_NOTICE })),
    ...rest,
  ]);
}

/** Why terminal tools refuse in Restricted Mode, and how to lift it. */
export const UNTRUSTED_MESSAGE =
  'DSH Bridge terminals are disabled because this workspace is not trusted (Restricted Mode): running shell commands could execute code from it. ' +
  'The user can trust it with the command "Workspaces: Manage Workspace Trust". Code navigation (dsh_lsp) still works.';

/**
 * Base of the terminal tools. Each tool owns its name (`static toolName`, a package.json tool),
 * its input type from its declaration (src/tools/declarations/terminal.ts), validated before it is called (../declaredTool.ts), `prepareInvocation` (an invocation message always;
 * a confirmation only for side effects, with the exact input in a code block) and `run`, which
 * throws errors the model can act on. `invoke` refuses in Restricted Mode and where no terminal
 * backend can start, on every call.
 */
export abstract class TerminalTool<T> implements vscode.LanguageModelTool<T> {
  constructor(protected readonly ctx: TerminalToolContext) {}

  abstract prepareInvocation(
    options: vscode.LanguageModelToolInvocationPrepareOptions<T>,
  ): vscode.PreparedToolInvocation | Promise<vscode.PreparedToolInvocation>;

  async invoke(
    options: vscode.LanguageModelToolInvocationOptions<T>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    // Re-checked on every call: any extension can invoke a tool, whatever its `when` clause says.
    if (!vscode.workspace.isTrusted) throw new Error(UNTRUSTED_MESSAGE);
    const why = this.ctx.unavailable();
    if (why) throw new Error(`DSH Bridge terminals are unavailable on this machine: ${why}. Code navigation tools still work.`);
    const redacting = vscode.workspace.getConfiguration(TERMINAL_SETTINGS_SECTION).get<boolean>('redactSecrets', true) !== false;
    let result: vscode.LanguageModelToolResult;
    try {
      result = await this.run(options.input, token, grantOf(options));
    } catch (error) {
      // An error may name a running command's line or a program's: redacted as results are. A
      // limit's refusal is made of counts and setting names only (ownerLimits.ts, searchPool.ts),
      // and is answered without the scan, which a burst of refused calls would repeat on this thread.
      const ownText = error instanceof TerminalError && error.code === 'LIMIT_REACHED';
      if (redacting && error instanceof Error && !ownText) error.message = redactShortText(error.message);
      throw error;
    }
    return redacting ? result : withRedactionOffNotice(result);
  }

  /** The caller's view of one of the tools' sessions, or undefined (for confirmation texts). */
  protected session(sessionId: unknown): SessionInfo | undefined {
    return sessionOf(this.ctx, sessionId);
  }

  /** Where a send to one of the tools' sessions would go now, or undefined when it is gone. */
  protected target(sessionId: string): SendTarget | undefined {
    try {
      return this.ctx.service.sendTarget(this.ctx.owner, sessionId);
    } catch {
      return undefined;
    }
  }

  /** `grant`: `client` when an MCP client's standing allowance let the call run without asking the person (../approvalGrant.ts). */
  protected abstract run(input: T, token: vscode.CancellationToken, grant?: 'client'): Promise<vscode.LanguageModelToolResult>;
}
