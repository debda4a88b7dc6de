/**
 * Asking the person before an MCP client's side effect. Outside chat there is no chat
 * confirmation, so a tool call whose `prepareInvocation` returns `confirmationMessages` (opening a
 * session, sending input, signals, closing, and whatever else a tool marks so) shows them in a modal
 * VS Code dialog: "Allow Once", "Allow <client> Until the Window Closes" (this connection, for the
 * rest of its life) or "Deny". Calls without `confirmationMessages` (reads, navigation) never ask.
 *
 * `dsh.mcp.autoApprove` (machine scope: only the person's own user or remote-machine settings,
 * never a workspace's) lists client names whose side effects run without asking; the person opts
 * in, like VS Code's own `chat.tools.autoApprove`. When it grows while the window runs, a warning
 * says which clients no longer ask. A confirmation marked to be asked every time (a session outside
 * the agent sandbox, ../tools/askEveryTime.ts) is asked with "Allow Once" or "Deny" only, even for
 * a client allowed for the connection or in `dsh.mcp.autoApprove`.
 */
import * as vscode from 'vscode';
import { SETTING } from '../../common/ids';
import { mustAskEveryTime } from '../tools/askEveryTime';
import { markdownPlainText } from '../tools/markdownPlainText';
import { errorMessage } from '../../common/errorMessage';

/** A call the person refused (or VS Code could not ask about); its message is for the client. */
export class McpDeniedError extends Error {}

/** The client names in `dsh.mcp.autoApprove` (strings only; anything else is ignored). */
export function autoApprovedClients(): string[] {
  const value = vscode.workspace.getConfiguration().get<unknown>(SETTING.mcpAutoApprove);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0) : [];
}

/**
 * What the dialog shows of a confirmation message: a modal's detail renders no markdown, so a
 * `MarkdownString` is shown as the plain text it reads as (the exact input of a code block, no
 * escapes or emphasis markers); a plain string as is.
 */
function text(message: string | vscode.MarkdownString): string {
  return typeof message === 'string' ? message : markdownPlainText(message.value);
}

/** The approvals of one MCP connection. */
export class McpApproval {
  private allowedForConnection = false;

  /** @param client the client's name, read when asking (known after `initialize`). */
  constructor(private readonly client: () => string) {}

  /**
   * Resolves when the call may run; asks the person when `prepared` holds confirmation messages.
   * The dialog shows the confirmation's title and its full message as plain text (the exact input,
   * as the tool prepared it) as the detail.
   * Asks every time, with no "Until the Window Closes" choice, when the confirmation is marked so.
   * @returns `client` when the client's standing allowance (this connection, or
   *   `dsh.mcp.autoApprove`) let it run without asking; undefined when nobody needed to be asked
   *   or the person answered.
   * @throws McpDeniedError when the person chose Deny or closed the dialog, or VS Code refused to
   *   show it (as it does in extension-test mode).
   */
  async check(toolName: string, prepared: vscode.PreparedToolInvocation | null | undefined): Promise<'client' | undefined> {
    const confirmation = prepared?.confirmationMessages;
    if (!confirmation) return undefined;
    const client = this.client();
    const everyTime = mustAskEveryTime(confirmation);
    if (!everyTime && (this.allowedForConnection || autoApprovedClients().includes(client))) return 'client';
    const once: vscode.MessageItem = { title: 'Allow Once' };
    const always: vscode.MessageItem = { title: `Allow ${client} Until the Window Closes` };
    const deny: vscode.MessageItem = { title: 'Deny', isCloseAffordance: true };
    let pick: vscode.MessageItem | undefined;
    try {
      pick = await vscode.window.showWarningMessage(
        `${client} (MCP) asks: ${confirmation.title}`,
        { modal: true, detail: `${text(confirmation.message)}\n\nTool: ${toolName}` },
        ...(everyTime ? [once, deny] : [once, always, deny]),
      );
    } catch (e) {
      throw new McpDeniedError(
        `${toolName} was not run: VS Code could not ask the person to allow it (${errorMessage(e)}). ` +
          (everyTime
            ? "This call needs the person's answer every time; no setting allows it without asking."
            : `The person can allow this client without asking by adding "${client}" to the setting ${SETTING.mcpAutoApprove}.`),
      );
    }
    if (pick === always) this.allowedForConnection = true;
    if (pick === once || pick === always) return undefined;
    throw new McpDeniedError(
      `${toolName} was denied: the person did not allow "${confirmation.title}" in VS Code. Do not retry it unless they ask you to.`,
    );
  }
}

/**
 * Warns when `dsh.mcp.autoApprove` gains client names while the window runs (so a change the
 * person did not make is seen), with an action that opens the setting.
 */
export function watchAutoApprove(): vscode.Disposable {
  let known = new Set(autoApprovedClients());
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (!e.affectsConfiguration(SETTING.mcpAutoApprove)) return;
    const now = autoApprovedClients();
    const added = now.filter((c) => !known.has(c));
    known = new Set(now);
    if (added.length === 0) return;
    void vscode.window
      .showWarningMessage(
        `DSH Bridge: the MCP client${added.length > 1 ? 's' : ''} ${added.map((c) => `"${c}"`).join(', ')} may now open terminals and run commands without asking (${SETTING.mcpAutoApprove}).`,
        'Open Setting',
      )
      .then((pick) => pick && vscode.commands.executeCommand('workbench.action.openSettings', SETTING.mcpAutoApprove));
  });
}
