/**
 * Palette commands for agent terminals: open one, list them (and see a session's newest
 * scrollback page in a read-only editor), close one. They act on the same owner as the tools, so
 * a terminal opened here is one the agent can use.
 */
import * as vscode from 'vscode';
import { describe } from '../terminal/errors';
import type { SessionInfo } from '../terminal/service';
import { TerminalToolContext, UNTRUSTED_MESSAGE, defaultCwd } from './terminalTools';

/** URI scheme of the read-only scrollback documents: `dsh-scrollback:/<sessionId>.log`. */
export const SCROLLBACK_SCHEME = 'dsh-scrollback';

/** Registers `dsh.openAgentTerminal`, `dsh.listAgentTerminals`, `dsh.closeAgentTerminal`. */
export function registerTerminalCommands(ctx: TerminalToolContext): vscode.Disposable {
  const pages = new ScrollbackDocuments(ctx);
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(SCROLLBACK_SCHEME, pages),
    vscode.commands.registerCommand('dsh.openAgentTerminal', () => guarded(ctx, async () => {
      const info = await ctx.service.open(ctx.owner, { cwd: defaultCwd() });
      void vscode.window.showInformationMessage(`DSH Bridge: agent terminal ${info.sessionId} is open in ${info.cwd}.`);
      return info;
    })),
    vscode.commands.registerCommand('dsh.listAgentTerminals', () => guarded(ctx, async () => {
      const pick = await pickSession(ctx, 'Agent terminals: pick one to see its newest scrollback page');
      if (!pick) return;
      const uri = vscode.Uri.from({ scheme: SCROLLBACK_SCHEME, path: `/${pick.sessionId}.log` });
      pages.refresh(uri);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    })),
    vscode.commands.registerCommand('dsh.closeAgentTerminal', () => guarded(ctx, async () => {
      const pick = await pickSession(ctx, 'Close which agent terminal?');
      if (!pick) return;
      await ctx.service.close(ctx.owner, pick.sessionId, 'closed from the command palette');
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

/** Serves a session's newest scrollback page (500 lines, byte-capped) as a read-only document. */
class ScrollbackDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly ctx: TerminalToolContext) {}

  refresh(uri: vscode.Uri): void {
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const sessionId = uri.path.replace(/^\//, '').replace(/\.log$/, '');
    try {
      const page = this.ctx.service.read(this.ctx.owner, sessionId, {});
      const header = `# ${sessionId}: lines ${page.firstLineNumber + 1}–${page.firstLineNumber + page.lineEnd - page.lineBegin} (newest page${page.truncated ? ', cut to the byte cap' : ''})\n`;
      return header + page.text;
    } catch (error) {
      return `# ${describe(error)}`;
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}
