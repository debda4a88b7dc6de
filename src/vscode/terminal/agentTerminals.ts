/**
 * The agent's terminals made visible to the person: every session of the tools' owner appears in
 * VS Code's terminal panel as an extension terminal (a `Pseudoterminal`) mirroring its output,
 * colours included, titled `DSH <id> · <name>`. It is read-only while the agent owns it: typing
 * offers "Take Over"; while the person holds it, agent sends are refused (TAKEN_OVER) and their
 * keystrokes go to the real session; "Hand Back" returns it. Closing the panel terminal asks
 * before closing the session, and a session the person holds closes from anywhere only with
 * their confirmation (`closeAgentSession`). A status bar item counts sessions and busy ones.
 * Sessions of MCP clients (the owners in {@link McpClientOwners}) appear the same way, titled with the
 * client's name. The panel terminal is given the session's output without its OSC strings other
 * than hyperlinks (see PanelFilter): a program in the session cannot claim shell-integration
 * commands, write the clipboard, rename the tab or recolour the person's terminal. It is paced
 * (see PacedMirror): at most a frame of bounded cost every 32 ms, and when a session prints more,
 * the panel skips ahead to the exact screen with a notice of what it did not show, so nothing a
 * program prints floods what the extension host sends to the window. Each command is marked in it
 * (a gutter mark where it was typed, a status line after its output; see CommandMarks). When a
 * program reads a password (echo off), a notification names it and the session, and its action
 * opens a one-line take-over: the person types, Enter sends it, and the session goes back.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { visibleText } from '../../terminal/input/input';
import type { Log } from '../../common/log';
import { COMMAND } from '../../common/ids';
import { CommandMarks, gutterMarksSupported, listeningNote } from '../../terminal/panel/commandMarks';
import type { ListeningSocket } from '../../terminal/types';
import { TerminalError } from '../../terminal/errors';
import { PacedMirror } from '../../terminal/panel/pacedMirror';
import { isTerminalReport } from '../../terminal/input/terminalReports';
import { type SecretPromptNotice, secretPromptNotice } from '../../terminal/secrets/secretPromptNotice';
import type { CloseOutcome, SessionEvent } from '../../terminal/service';
import type { Owner } from '../../terminal/owner';
import type { SessionInfo } from '../../terminal/session/publishedSession';
import { LINE_SPLIT_MARKER } from '../../terminal/output/scrollback';
import { McpClientOwners } from '../mcp/clientOwners';
import type { TerminalToolContext } from '../tools/terminal/context';
import { sessionOf } from '../tools/terminal/sessionOf';
import { errorMessage } from '../../common/errorMessage';

/** Prefix of every mirror terminal's name; the session id follows. */
export const MIRROR_PREFIX = 'DSH';

/** The panel mirrors as the palette commands use them; disposing removes them all. */
export interface AgentTerminalPanel extends vscode.Disposable {
  /**
   * Brings the panel terminal of `sessionId` forward and focuses it, opening the panel, as VS
   * Code's own "Terminal: Create New Terminal" does. Returns false when the session has none (it is
   * unknown or its shell has exited).
   */
  show(sessionId: string): boolean;
}

/**
 * Registers the panel mirrors, the take-over commands and the status bar item, for the tools'
 * owner and every owner in `clients` (MCP connections).
 */
export function registerAgentTerminals(ctx: TerminalToolContext, log: Log, clients = new McpClientOwners()): AgentTerminalPanel {
  const mirrors = new Map<string, Mirror>();
  /** Every followed session with its owner, the tools' first. */
  const all = () => [ctx.owner, ...clients.owners()].flatMap((owner) => ctx.service.list(owner).map((session) => ({ owner, session })));
  const status = vscode.window.createStatusBarItem('dsh.agentTerminals', vscode.StatusBarAlignment.Left, 10);
  status.name = 'DSH Bridge agent terminals';
  status.command = COMMAND.listAgentTerminals;

  const info = (sessionId: string) => all().find((e) => e.session.sessionId === sessionId);
  // Every change of the item is a message to the window, queued with every tool result: the item
  // is brought up to date once per STATUS_COALESCE_MS (a send that answers sooner shows no "busy"),
  // and only what changed is set.
  let statusDue: ReturnType<typeof setTimeout> | undefined;
  let shown: { text: string; tooltip: string } | undefined;
  const applyStatus = () => {
    statusDue = undefined;
    const sessions = all().map((e) => e.session);
    if (sessions.length === 0) {
      if (shown) status.hide();
      shown = undefined;
      return;
    }
    const busy = sessions.filter((s) => s.busy).length;
    const text = `$(terminal) ${sessions.length} ${sessions.length === 1 ? 'agent' : 'agents'}${busy ? ` · ${busy} busy` : ''}`;
    const tooltip = sessions
      .map(
        (s) =>
          `${s.sessionId} ${visibleText(s.name)}: ${stateText(s)}${s.sandbox.on ? ', in the agent sandbox' : s.sandbox.outsideApproved ? ', outside the agent sandbox (approved)' : ''}`,
      )
      .join('\n');
    if (shown?.text !== text) status.text = text;
    if (shown?.tooltip !== tooltip) status.tooltip = tooltip;
    if (!shown) status.show();
    shown = { text, tooltip };
  };
  const updateStatus = () => {
    statusDue ??= setTimeout(applyStatus, STATUS_COALESCE_MS);
  };
  /** Opens the panel terminal of `owner`'s session `sessionId` unless it has one or its shell exited. */
  const ensureMirror = (owner: Owner, sessionId: string) => {
    if (mirrors.has(sessionId)) return;
    const session = sessionOf({ service: ctx.service, owner }, sessionId);
    if (!session || session.sessionStatus.kind === 'exited') return;
    const mirror: Mirror = new Mirror({ ...ctx, owner }, session, clients.clientOf(owner), log, {
      gone: () => {
        if (mirrors.get(sessionId) === mirror) mirrors.delete(sessionId);
      },
      // Kept running after its panel terminal closed: every agent session has one, so a new one.
      kept: () => ensureMirror(owner, sessionId),
    });
    mirrors.set(sessionId, mirror);
  };
  const onEvent = (owner: Owner, event: SessionEvent) => {
    if (event.kind === 'secret-prompt') return void askForSecret(owner, event.sessionId);
    if (event.kind === 'opened') ensureMirror(owner, event.sessionId);
    if (event.kind === 'closed') mirrors.get(event.sessionId)?.sessionClosed();
    if (event.kind === 'changed') mirrors.get(event.sessionId)?.refreshName();
    updateStatus();
  };
  /**
   * A program in `sessionId` reads a secret with echo off: the person is told which program asks in
   * which session, and "Answer in Terminal" focuses its panel terminal in a one-line take-over
   * (TerminalService.takeOverLine): they type, Enter sends it, and the session goes back to the agent.
   */
  const asking = new Set<string>();
  const askForSecret = async (owner: Owner, sessionId: string) => {
    if (asking.has(sessionId)) return;
    let notice: SecretPromptNotice;
    try {
      notice = secretPromptNotice(sessionId, ctx.service.sendTarget(owner, sessionId).receiver);
    } catch {
      return;
    }
    asking.add(sessionId);
    try {
      // The log names who asks where (never what is typed): the record of what the person was asked.
      log.info(`secret prompt: notified the person: ${notice.message}`);
      const pick = await vscode.window.showWarningMessage(notice.message, notice.action);
      if (pick !== notice.action) return;
      ensureMirror(owner, sessionId);
      if (ctx.service.takeOverLine(owner, sessionId)) mirrors.get(sessionId)?.terminal.show(false);
    } finally {
      asking.delete(sessionId);
    }
  };
  // Session events come per owner: the tools' owner, and each MCP client's while it is followed.
  const subscriptions = new Map<Owner, { dispose(): void }>();
  const follow = (owner: Owner, followed = true) => {
    subscriptions.get(owner)?.dispose();
    subscriptions.delete(owner);
    if (followed)
      subscriptions.set(
        owner,
        ctx.service.onDidChangeSessions(owner, (event) => onEvent(owner, event)),
      );
  };
  follow(ctx.owner);
  clients.owners().forEach((o) => follow(o));
  const followClients = clients.onDidChange(follow);
  for (const e of all()) ensureMirror(e.owner, e.session.sessionId);
  updateStatus();

  /** The session of the active mirror terminal, else one the person picks among `candidates`. */
  const targetSession = async (candidates: SessionInfo[], placeHolder: string) => {
    const active = [...mirrors.values()].find((m) => m.terminal === vscode.window.activeTerminal);
    if (active && candidates.some((c) => c.sessionId === active.sessionId)) return active.sessionId;
    const [only, ...others] = candidates;
    if (only && others.length === 0) return only.sessionId;
    const pick = await vscode.window.showQuickPick(
      candidates.map((s) => ({ label: s.sessionId, description: visibleText(s.name), sessionId: s.sessionId })),
      { placeHolder },
    );
    return pick?.sessionId;
  };

  const registrations = vscode.Disposable.from(
    status,
    { dispose: () => clearTimeout(statusDue) },
    followClients,
    { dispose: () => [...subscriptions.values()].forEach((s) => s.dispose()) },
    { dispose: () => [...mirrors.values()].forEach((m) => m.dispose(true)) },
    vscode.commands.registerCommand(COMMAND.takeOverAgentTerminal, async (sessionId?: string) => {
      const candidates = all()
        .map((e) => e.session)
        .filter((s) => !s.takenOver && s.sessionStatus.kind === 'running');
      if (candidates.length === 0) return void vscode.window.showInformationMessage('DSH Bridge: no agent terminal to take over.');
      const id = typeof sessionId === 'string' ? sessionId : await targetSession(candidates, 'Take over which agent terminal?');
      const owner = id ? info(id)?.owner : undefined;
      if (!id || !owner) return;
      ctx.service.takeOver(owner, id);
      mirrors.get(id)?.terminal.show();
    }),
    vscode.commands.registerCommand(COMMAND.handBackAgentTerminal, async (sessionId?: string) => {
      const candidates = all()
        .map((e) => e.session)
        .filter((s) => s.takenOver);
      if (candidates.length === 0) return void vscode.window.showInformationMessage('DSH Bridge: no agent terminal is taken over.');
      const id = typeof sessionId === 'string' ? sessionId : await targetSession(candidates, 'Hand back which agent terminal?');
      const owner = id ? info(id)?.owner : undefined;
      if (id && owner) ctx.service.handBack(owner, id);
    }),
  );
  return {
    show: (sessionId) => {
      const owner = mirrors.has(sessionId) ? undefined : info(sessionId)?.owner;
      if (owner) ensureMirror(owner, sessionId);
      const mirror = mirrors.get(sessionId);
      mirror?.terminal.show();
      return mirror !== undefined;
    },
    dispose: () => void registrations.dispose(),
  };
}

/**
 * Closes one of the tools' sessions. A session the person has taken over closes only if they
 * confirm in a modal warning; `requestedBy` says who asked (e.g. "the agent (dsh_terminal_close)").
 * A dialog VS Code cannot show (it refuses modal dialogs while extension tests run) counts as no.
 * `keep` leaves the session's background processes running (CloseOptions.keep); the person is told
 * which ones, with a way to the list of kept processes.
 * @returns what `TerminalService.end` returns.
 * @throws TerminalError TAKEN_OVER when the person did not confirm; the service's errors otherwise.
 */
export async function closeAgentSession(
  ctx: TerminalToolContext,
  sessionId: string,
  reason: string,
  requestedBy: string,
  keep?: boolean,
): Promise<CloseOutcome> {
  // Refuses an unknown or another owner's id as close itself would.
  const session = ctx.service.info(ctx.owner, sessionId);
  const keeping = keep === undefined ? {} : { keep };
  if (!session.takenOver) return told(sessionId, await ctx.service.end(ctx.owner, sessionId, reason, keeping));
  const running = session.foregroundCommand ? ` \`${session.foregroundCommand}\` is running in it.` : '';
  let pick: string | undefined;
  try {
    pick = await vscode.window.showWarningMessage(
      `Close agent terminal ${sessionId}? You have taken it over; its shell and everything running in it will end.`,
      { modal: true, detail: `Asked by ${requestedBy}. Working directory: ${session.cwd}.${running}` },
      'Close Session',
    );
  } catch {
    pick = undefined;
  }
  if (pick !== 'Close Session') {
    throw new TerminalError(
      'TAKEN_OVER',
      `the user has taken over session ${sessionId} and did not confirm closing it; it keeps running. Leave it to them, ask them to hand it back, or use another session`,
    );
  }
  return told(sessionId, await ctx.service.end(ctx.owner, sessionId, reason, { userConfirmed: true, ...keeping }));
}

/**
 * Tells the person about processes a close of `sessionId` left running (without waiting for them
 * to answer), with "Show Kept Processes" (the palette command that lists and stops them).
 * Returns `outcome`.
 */
export function told(sessionId: string, outcome: CloseOutcome): CloseOutcome {
  const kept = outcome.kept ?? [];
  if (kept.length > 0) {
    const names = kept
      .slice(0, 3)
      .map((p) => `${visibleText(p.command)} (pid ${p.pid})`)
      .join(', ');
    const more = kept.length > 3 ? ` and ${kept.length - 3} more` : '';
    void vscode.window
      .showInformationMessage(
        `Agent terminal ${sessionId} closed; ${kept.length === 1 ? 'this process keeps' : 'these processes keep'} running: ${names}${more}.`,
        'Show Kept Processes',
      )
      .then((pick) => {
        if (pick) void vscode.commands.executeCommand(COMMAND.keptProcesses);
      });
  }
  return outcome;
}

function stateText(s: SessionInfo): string {
  if (s.sessionStatus.kind === 'exited') return 'exited';
  if (s.takenOver) return 'taken over by you';
  return s.busy ? `busy: ${s.foregroundCommand ?? 'running'}` : 'idle';
}

/** How many of the newest lines a panel terminal shows of what its session printed before it opened. */
const MIRROR_BACKLOG_LINES = 200;

/** The status bar item is brought up to date at most once per this many ms (see updateStatus). */
const STATUS_COALESCE_MS = 100;

/**
 * The newest lines (at most MIRROR_BACKLOG_LINES) the session printed before a panel terminal
 * subscribed to it, as the PTY produced them (escapes included, our markers removed), with lines
 * the scrollback split rejoined and CRLF line ends for the terminal; '' if the session is gone.
 */
function printedSoFar(ctx: TerminalToolContext, sessionId: string): string {
  try {
    const page = ctx.service.read(ctx.owner, sessionId, { raw: true, count: MIRROR_BACKLOG_LINES });
    return page.text.split(`${LINE_SPLIT_MARKER}\n`).join('').replace(/\r?\n/g, '\r\n');
  } catch {
    return '';
  }
}

/** One session's panel terminal; `ctx.owner` is the session's owner. */
class Mirror implements vscode.Pseudoterminal, vscode.Disposable {
  readonly sessionId: string;
  readonly terminal: vscode.Terminal;
  private readonly writeEmitter = new vscode.EventEmitter<string>();
  private readonly closeEmitter = new vscode.EventEmitter<number | void>();
  private readonly nameEmitter = new vscode.EventEmitter<string>();
  /** The panel terminal's name as last given to VS Code: renamed only when it changes. */
  private shownTitle: string;
  readonly onDidWrite = this.writeEmitter.event;
  readonly onDidClose = this.closeEmitter.event;
  readonly onDidChangeName = this.nameEmitter.event;
  private readonly output: { dispose(): void };
  private readonly commandEvents: { dispose(): void };
  /** Each command's mark and status line (see CommandMarks). */
  private readonly marks = new CommandMarks(80, gutterMarksSupported(vscode.version));
  /** Set when the terminal closes for a reason other than the person closing it. */
  private quiet = false;
  /** The sockets the session's processes listened on at the latest look, and whether a look is in flight. */
  private listening: ListeningSocket[] = [];
  private lookingForPorts = false;
  private offering = false;
  /** What the person's terminal is given of the session's output, and when. */
  private readonly paced: PacedMirror;

  constructor(
    private readonly ctx: TerminalToolContext,
    session: SessionInfo,
    /** The MCP client's name for a client's session; undefined for the tools' own. */
    private readonly client: string | undefined,
    log: Log,
    private readonly hooks: { gone(): void; kept(): void },
  ) {
    this.sessionId = session.sessionId;
    this.paced = new PacedMirror({
      cols: 80,
      rows: 24,
      write: (text) => this.emit(this.marks.written(text)),
      emulatorEntry: path.join(__dirname, 'mirrorEmulatorWorker.js'),
      tail: () => printedSoFar(ctx, session.sessionId),
      markNonce: this.marks.nonce,
      onError: (error) => log.warn(`panel mirror of ${session.sessionId}: ${error.message}`),
    });
    // Read and subscribe in one turn of the event loop, so no output falls between them.
    this.paced.push(this.marks.printedBefore(printedSoFar(ctx, session.sessionId)));
    this.output = ctx.service.onOutput(ctx.owner, session.sessionId, (text) => this.paced.push(this.marks.output(text)));
    // A command's status line names the ports the session's processes listened on at the latest
    // look (read off this thread at each command boundary, so it is at most one command old).
    this.commandEvents = ctx.service.onCommand(ctx.owner, session.sessionId, (event) => {
      this.paced.push(this.marks.event(event, event.kind === 'start' ? undefined : listeningNote(this.listening)));
      this.refreshListening();
    });
    this.shownTitle = this.title(session);
    this.terminal = vscode.window.createTerminal({
      name: this.shownTitle,
      pty: this,
      isTransient: true,
      iconPath: new vscode.ThemeIcon('hubot'),
    });
  }

  open(dimensions: vscode.TerminalDimensions | undefined): void {
    if (dimensions) this.marks.resize(dimensions.columns);
    this.paced.open(dimensions?.columns, dimensions?.rows);
  }

  setDimensions(dimensions: vscode.TerminalDimensions): void {
    this.marks.resize(dimensions.columns);
    this.paced.resize(dimensions.columns, dimensions.rows);
  }

  /**
   * Typing: the person's keystrokes go to the session only while they hold it (with the terminal's
   * own reports, which answer the program); otherwise typing offers Take Over.
   */
  handleInput(data: string): void {
    const session = this.info();
    if (session?.takenOver) {
      this.ctx.service.writeUserInput(this.ctx.owner, this.sessionId, data);
      return;
    }
    // An emulator's answer to a query the program printed, or a focus or mouse report, is not typing.
    if (this.offering || !session || isTerminalReport(data)) return;
    this.offering = true;
    void vscode.window
      .showInformationMessage(
        `${this.sessionId} is the agent's terminal and is read-only. Take it over to type into it? Agent input is refused until you hand it back.`,
        'Take Over',
      )
      .then((pick) => {
        this.offering = false;
        if (pick) void vscode.commands.executeCommand(COMMAND.takeOverAgentTerminal, this.sessionId);
      });
  }

  /** Looks at the session's listening sockets off this thread, one look at a time. */
  private refreshListening(): void {
    if (this.lookingForPorts) return;
    this.lookingForPorts = true;
    void this.ctx.service
      .processes(this.ctx.owner, this.sessionId, false)
      .then(
        (report) => void (this.listening = report.available ? report.listening : []),
        () => undefined,
      )
      .finally(() => (this.lookingForPorts = false));
  }

  /** The person closed the panel terminal: ask before ending the session itself. */
  close(): void {
    if (this.quiet) return;
    this.dispose();
    void vscode.window
      .showWarningMessage(
        `Close agent terminal ${this.sessionId} too? Its shell and everything running in it will end.`,
        { modal: true },
        'Close Session',
        'Keep Running',
      )
      .then(async (pick) => {
        if (pick === 'Close Session') {
          await this.ctx.service
            .close(this.ctx.owner, this.sessionId, 'closed from its panel terminal', { userConfirmed: true })
            .catch((e) => vscode.window.showErrorMessage(`DSH Bridge: ${errorMessage(e)}`));
        } else if (this.info()) {
          this.hooks.kept();
        }
      });
  }

  refreshName(): void {
    const session = this.info();
    if (!session) return;
    const title = this.title(session);
    if (title === this.shownTitle) return;
    this.shownTitle = title;
    this.nameEmitter.fire(title);
  }

  /** The session left the table: its panel terminal goes too, without asking. */
  sessionClosed(): void {
    this.dispose(true);
  }

  /** Stops mirroring; `closeTerminal` also removes the panel terminal (on deactivation). */
  dispose(closeTerminal = false): void {
    this.output.dispose();
    this.commandEvents.dispose();
    this.paced.dispose();
    this.hooks.gone();
    if (closeTerminal) {
      this.quiet = true;
      this.terminal.dispose();
    }
    this.writeEmitter.dispose();
    this.closeEmitter.dispose();
    this.nameEmitter.dispose();
  }

  /** The one way text reaches the panel terminal (PacedMirror decides what and when). */
  private emit(text: string): void {
    this.writeEmitter.fire(text);
  }

  /** The session now (that session alone is looked at), or undefined once it left the table. */
  private info(): SessionInfo | undefined {
    return sessionOf(this.ctx, this.sessionId);
  }

  private title(s: SessionInfo): string {
    // Names from the agent and the client are shown with their invisible characters made visible.
    const name = s.name === s.sessionId ? '' : ` · ${visibleText(s.name)}`;
    const client = this.client === undefined ? '' : ` · ${visibleText(this.client)}`;
    return `${MIRROR_PREFIX} ${s.sessionId}${client}${name}${s.shell ? ` · ${s.shell}` : ''}${s.sandbox.on ? ' · sandboxed' : s.sandbox.outsideApproved ? ' · outside the sandbox' : ''}${s.lineTakeOver ? ' (you: type the password, then Enter)' : s.takenOver ? ' (you)' : ''}`;
  }
}
