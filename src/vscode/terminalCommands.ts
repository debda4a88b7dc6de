/**
 * Palette commands for agent terminals: open one, list them (and see a session's newest
 * scrollback page in a read-only editor), close one (asking first if the person has taken it
 * over). They act on the same owner as the tools, so a terminal opened here is one the agent can
 * use.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { COMMAND } from '../common/ids';
import { describe } from '../terminal/errors';
import type { SessionInfo } from '../terminal/service';
import { TerminalToolContext, defaultCwd } from './tools/terminal/context';
import { UNTRUSTED_MESSAGE } from './tools/terminal/terminalTool';
import { AgentTerminalPanel, closeAgentSession } from './agentTerminals';

/**
 * URI scheme of the read-only scrollback documents: `dsh-scrollback://<token>/<sessionId>.log`,
 * where `<token>` is 128 random bits minted for each view the person opens. Any extension can ask
 * a content provider for any URI, so the token, not the path, names the session: a URI without a
 * token this window minted serves nothing.
 */
export const SCROLLBACK_SCHEME = 'dsh-scrollback';

/**
 * Registers `dsh.openAgentTerminal` (which brings the new session's panel terminal forward through
 * `panel`), `dsh.listAgentTerminals`, `dsh.closeAgentTerminal`.
 */
export function registerTerminalCommands(ctx: TerminalToolContext, panel: AgentTerminalPanel): vscode.Disposable {
  const pages = new ScrollbackDocuments(ctx);
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(SCROLLBACK_SCHEME, pages),
    vscode.commands.registerCommand(COMMAND.openAgentTerminal, () => guarded(ctx, async () => {
      const info = await ctx.service.open(ctx.owner, { cwd: defaultCwd() });
      panel.show(info.sessionId);
      void vscode.window.showInformationMessage(`DSH Bridge: agent terminal ${info.sessionId} is open in ${info.cwd}.`);
      return info;
    })),
    vscode.commands.registerCommand(COMMAND.listAgentTerminals, () => guarded(ctx, async () => {
      const pick = await pickSession(ctx, 'Agent terminals: pick one to see its newest scrollback page');
      if (!pick) return;
      const uri = pages.mint(pick.sessionId);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    })),
    vscode.commands.registerCommand(COMMAND.closeAgentTerminal, () => guarded(ctx, async () => {
      const pick = await pickSession(ctx, 'Close which agent terminal?');
      if (!pick) return;
      await closeAgentSession(ctx, pick.sessionId, 'closed from the command palette', 'you (DSH: Close Agent Terminal)');
      void vscode.window.showInformationMessage(`DSH Bridge: agent terminal ${pick.sessionId} closed.`);
    })),
    pages,
  );
}

async function guarded<T>(ctx: TerminalToolContext, action: () => Promise<T>): Promise<T | undefined> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window.showErrorMessage(UNTRUSTED_MESSAGE);
    return undefined;
  }
  const why = ctx.unavailable();
  if (why) {
    void vscode.window.showErrorMessage(`DSH Bridge terminals are unavailable: ${why}`);
    return undefined;
  }
  try {
    return await action();
  } catch (error) {
    void vscode.window.showErrorMessage(`DSH Bridge: ${describe(error)}`);
    return undefined;
  }
}

async function pickSession(ctx: TerminalToolContext, placeHolder: string): Promise<SessionInfo | undefined> {
  const sessions = ctx.service.list(ctx.owner);
  if (sessions.length === 0) {
    void vscode.window.showInformationMessage('DSH Bridge: there are no agent terminals. Open one with "DSH: Open Agent Terminal".');
    return undefined;
  }
  const items = sessions.map((s) => ({
    label: s.sessionId,
    description: s.name === s.sessionId ? s.cwd : `${s.name} · ${s.cwd}`,
    detail: s.sessionStatus.kind === 'exited' ? 'exited' : s.busy ? `busy: ${s.foregroundCommand ?? 'running'}` : 'idle at its prompt',
    session: s,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.session;
}

/**
 * Serves a session's newest scrollback page (500 lines, byte-capped) as a read-only document, for
 * the views this window opened: each has its own token; an unknown token serves a line saying so.
 * A token is forgotten when its document is closed.
 */
class ScrollbackDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Token → session id of every view opened and not yet closed. */
  private readonly views = new Map<string, string>();
  private readonly closed: vscode.Disposable;

  constructor(private readonly ctx: TerminalToolContext) {
    this.closed = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === SCROLLBACK_SCHEME) this.views.delete(doc.uri.authority);
    });
  }

  /** A fresh URI for a new view of `sessionId`. */
  mint(sessionId: string): vscode.Uri {
    const token = randomBytes(16).toString('hex');
    this.views.set(token, sessionId);
    return vscode.Uri.from({ scheme: SCROLLBACK_SCHEME, authority: token, path: `/${sessionId}.log` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const sessionId = this.views.get(uri.authority);
    if (sessionId === undefined || uri.path !== `/${sessionId}.log`) {
      return '# This scrollback view is not open: use "DSH: List Agent Terminals" to see an agent terminal.';
    }
    try {
      const page = this.ctx.service.read(this.ctx.owner, sessionId, {});
      const header = `# ${sessionId}: lines ${page.firstLineNumber + 1}–${page.firstLineNumber + page.lineEnd - page.lineBegin} (newest page${page.truncated ? ', cut to the byte cap' : ''})\n`;
      return header + page.text;
    } catch (error) {
      return `# ${describe(error)}`;
    }
  }

  dispose(): void {
    this.closed.dispose();
    this.views.clear();
  }
}
