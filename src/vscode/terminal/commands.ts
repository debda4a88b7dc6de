/**
 * Palette commands for agent terminals: open one, list them (and see a session's newest
 * scrollback page in a read-only editor), show the commands they ran (and one command's output in
 * a read-only editor), close one (asking first if the person has taken it over). They act on the same owner as the tools, so a terminal opened here is one the agent can
 * use.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { visibleText } from '../../terminal/input/input';
import { COMMAND } from '../../common/ids';
import type { CommandRecord } from '../../terminal/history/commandRecord';
import type { SessionInfo } from '../../terminal/session/publishedSession';
import { TerminalToolContext, defaultCwd } from '../tools/terminal/context';
import { UNTRUSTED_MESSAGE } from '../tools/terminal/terminalTool';
import { AgentTerminalPanel, closeAgentSession } from './agentTerminals';
import { registerKeptProcessesCommand } from './keptProcessesCommand';
import { errorMessage } from '../../common/errorMessage';

/**
 * URI scheme of the read-only scrollback documents: `dsh-scrollback://<token>/<sessionId>.log`
 * (the newest page) or `dsh-scrollback://<token>/<sessionId>-command-<index>.log` (a command's output), where `<token>` is 128 random bits minted for each view the person opens. Any extension can ask
 * a content provider for any URI, so the token, not the path, names the session: a URI without a
 * token this window minted serves nothing.
 */
export const SCROLLBACK_SCHEME = 'dsh-scrollback';

/**
 * Registers `dsh.openAgentTerminal` (which brings the new session's panel terminal forward through
 * `panel`), `dsh.listAgentTerminals`, `dsh.showCommandHistory`, `dsh.closeAgentTerminal`,
 * `dsh.terminal.keptProcesses` (keptProcessesCommand.ts).
 */
export function registerTerminalCommands(ctx: TerminalToolContext, panel: AgentTerminalPanel): vscode.Disposable {
  const pages = new ScrollbackDocuments(ctx);
  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(SCROLLBACK_SCHEME, pages),
    vscode.commands.registerCommand(COMMAND.openAgentTerminal, () =>
      guarded(ctx, async () => {
        const info = await ctx.service.open(ctx.owner, { cwd: defaultCwd() });
        panel.show(info.sessionId);
        void vscode.window.showInformationMessage(`DSH Bridge: agent terminal ${info.sessionId} is open in ${info.cwd}.`);
        return info;
      }),
    ),
    vscode.commands.registerCommand(COMMAND.listAgentTerminals, () =>
      guarded(ctx, async () => {
        const pick = await pickSession(ctx, 'Agent terminals: pick one to see its newest scrollback page');
        if (!pick) return;
        const uri = pages.mint(pick.sessionId);
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
      }),
    ),
    vscode.commands.registerCommand(COMMAND.showCommandHistory, () =>
      guarded(ctx, async () => {
        const pick = await pickCommand(ctx);
        if (!pick) return undefined;
        const uri = pages.mint(pick.sessionId, pick.record.index);
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
        return { sessionId: pick.sessionId, command: pick.record.index, uri: uri.toString() };
      }),
    ),
    vscode.commands.registerCommand(COMMAND.closeAgentTerminal, () =>
      guarded(ctx, async () => {
        const pick = await pickSession(ctx, 'Close which agent terminal?');
        if (!pick) return;
        await closeAgentSession(ctx, pick.sessionId, 'closed from the command palette', 'you (DSH: Close Agent Terminal)');
        void vscode.window.showInformationMessage(`DSH Bridge: agent terminal ${pick.sessionId} closed.`);
      }),
    ),
    registerKeptProcessesCommand(ctx.service),
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
    void vscode.window.showErrorMessage(`DSH Bridge: ${errorMessage(error)}`);
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
    description: visibleText(s.name === s.sessionId ? s.cwd : `${s.name} · ${s.cwd}`),
    detail: s.sessionStatus.kind === 'exited' ? 'exited' : s.busy ? `busy: ${s.foregroundCommand ?? 'running'}` : 'idle at its prompt',
    session: s,
  }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.session;
}

/** How many of each session's newest commands "Show Command History" lists. */
const PALETTE_COMMANDS_PER_SESSION = 200;

/**
 * The person picks one of the commands the agent's sessions ran (newest first, each session's
 * newest PALETTE_COMMANDS_PER_SESSION): the session, the command line, how it ended, how long it took.
 */
async function pickCommand(ctx: TerminalToolContext): Promise<{ sessionId: string; record: CommandRecord } | undefined> {
  const items = ctx.service.list(ctx.owner).flatMap((s) =>
    ctx.service.history(ctx.owner, s.sessionId, { count: PALETTE_COMMANDS_PER_SESSION }).commands.map((record) => ({
      label: `${record.state === 'finished' && record.exitCode === 0 ? '$(check)' : record.state === 'running' ? '$(loading~spin)' : '$(error)'} ${visibleText(record.command.split('\n')[0] ?? '')}`,
      description: `${s.sessionId} #${record.index} · ${endText(record)} · ${durationText(record.durationMs)}`,
      detail: `${record.typedBy === 'user' ? 'typed by you' : record.typedBy === 'dsh_run' ? 'dsh_run' : 'the agent'}${record.cwdStart ? ` in ${visibleText(record.cwdStart)}` : ''} · ${record.output.lineCount} lines of output${record.output.truncated ? ' (its oldest part evicted)' : ''}`,
      sessionId: s.sessionId,
      startedAt: record.startedAt,
      record,
    })),
  );
  if (items.length === 0) {
    void vscode.window.showInformationMessage('DSH Bridge: no agent terminal has run a command yet.');
    return undefined;
  }
  items.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  return vscode.window.showQuickPick(items, {
    placeHolder: 'Commands of the agent terminals, newest first: pick one to see its output',
    matchOnDescription: true,
  });
}

/** How a command ended, as the palette shows it. */
function endText(r: CommandRecord): string {
  switch (r.state) {
    case 'running':
      return 'running';
    case 'interrupted':
      return `interrupted by ${r.signal ?? 'a signal'}`;
    case 'stopped':
      return `stopped by ${r.signal ?? 'a signal'}`;
    case 'session_exited':
      return 'the shell exited';
    case 'finished':
      return `exit ${r.exitCode ?? '?'}`;
  }
}

/** A duration in ms as the palette shows it: `850 ms`, `12.3 s`, `4 min 5 s`. */
function durationText(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * Serves a session's newest scrollback page (500 lines, byte-capped) as a read-only document, for
 * the views this window opened: each has its own token; an unknown token serves a line saying so.
 * A token is forgotten when its document is closed.
 */
class ScrollbackDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  /** Token → the session (and command, for a command's output) of every view opened and not yet closed. */
  private readonly views = new Map<string, { sessionId: string; command?: number }>();
  private readonly closed: vscode.Disposable;

  constructor(private readonly ctx: TerminalToolContext) {
    this.closed = vscode.workspace.onDidCloseTextDocument((doc) => {
      if (doc.uri.scheme === SCROLLBACK_SCHEME) this.views.delete(doc.uri.authority);
    });
  }

  /** A fresh URI for a new view of `sessionId`'s newest page, or of command `command`'s output. */
  mint(sessionId: string, command?: number): vscode.Uri {
    const token = randomBytes(16).toString('hex');
    this.views.set(token, { sessionId, command });
    return vscode.Uri.from({ scheme: SCROLLBACK_SCHEME, authority: token, path: viewPath(sessionId, command) });
  }

  /** The view's text, rendered off the extension host thread (the service's readAsync). */
  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const view = this.views.get(uri.authority);
    if (view === undefined || uri.path !== viewPath(view.sessionId, view.command)) {
      return '# This scrollback view is not open: use "DSH: List Agent Terminals" or "DSH: Show Command History" to see an agent terminal.';
    }
    const { sessionId, command } = view;
    if (command !== undefined) return this.commandOutput(sessionId, command);
    try {
      const page = await this.ctx.service.readAsync(this.ctx.owner, sessionId, {});
      const header = `# ${sessionId}: lines ${page.firstLineNumber + 1}–${page.firstLineNumber + page.lineEnd - page.lineBegin} (newest page${page.truncated ? ', cut to the byte cap' : ''})\n`;
      return header + page.text;
    } catch (error) {
      return `# ${errorMessage(error)}`;
    }
  }

  /** A header saying what ran, how it ended and which lines follow, then the command's retained output. */
  private async commandOutput(sessionId: string, index: number): Promise<string> {
    try {
      const r = this.ctx.service.command(this.ctx.owner, sessionId, index);
      const page = await this.ctx.service.readAsync(this.ctx.owner, sessionId, { command: index, count: Math.max(1, r.output.lineCount) });
      const shown = page.lineEnd - page.lineBegin;
      const lines = shown > 0 ? `lines ${page.firstLineNumber + 1}–${page.firstLineNumber + shown}` : 'no output';
      const gone = r.output.truncated
        ? `; its first ${r.output.droppedLines} lines (${r.output.droppedBytes} bytes) are no longer in the scrollback`
        : '';
      const cut = page.truncated ? `; only the newest ${shown} lines fit the read cap (dsh.terminal.maxReadBytes)` : '';
      const header = [
        `# ${sessionId} command ${index}: ${endText(r)}, ${durationText(r.durationMs)}, started ${r.startedAt}${r.cwdStart ? ` in ${r.cwdStart}` : ''}`,
        ...r.command.split('\n').map((l, i) => `# ${i === 0 ? '$' : '>'} ${l}`),
        `# ${lines}${gone}${cut}`,
      ];
      return `${header.join('\n')}\n${page.text}`;
    } catch (error) {
      return `# ${errorMessage(error)}`;
    }
  }

  dispose(): void {
    this.closed.dispose();
    this.views.clear();
  }
}

/** The path of a view: `/<sessionId>.log`, or `/<sessionId>-command-<index>.log`. */
function viewPath(sessionId: string, command: number | undefined): string {
  return command === undefined ? `/${sessionId}.log` : `/${sessionId}-command-${command}.log`;
}
