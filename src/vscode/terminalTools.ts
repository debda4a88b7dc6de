/**
 * The terminal Language Model Tools. Each class owns its name, a typed input mirroring its
 * `inputSchema` in package.json, `prepareInvocation` (an invocation message always; confirmation
 * only for side effects, with the exact command in a code block) and `invoke`, which throws errors
 * the model can act on. Results: a first text part holding a JSON object, then the terminal text
 * verbatim as a second part where there is any.
 */
import * as vscode from 'vscode';
import { TerminalError } from '../terminal/errors';
import { SendInput as TypedInput, checkSendInput, checkText, keyLabel, visibleText } from '../terminal/input';
import { tailByBytes } from '../terminal/scrollback';
import { compileUntil } from '../terminal/untilPattern';
import type { Owner, SendTarget, SessionInfo, TerminalService } from '../terminal/service';
import { ALLOWED_SIGNALS, ReceiverIdentity, SendResult, receiverIdentity } from '../terminal/types';
import { closeAgentSession } from './agentTerminals';

/** Why no terminal backend is available on this machine, or undefined when one is. */
export type BackendAvailability = () => string | undefined;

/** What every terminal tool needs: the service, the tools' owner, and backend availability. */
export interface TerminalToolContext {
  service: TerminalService;
  owner: Owner;
  unavailable: BackendAvailability;
}

/**
 * A tool result: JSON first, then terminal text (if any) as its own part. Text over
 * TOOL_OUTPUT_CAP_BYTES keeps its newest part and the JSON says `truncated` and how much went.
 */
export function toolResult(json: object, text?: string): vscode.LanguageModelToolResult {
  let body = text;
  let head: object = json;
  if (body && Buffer.byteLength(body) > TOOL_OUTPUT_CAP_BYTES) {
    // The tool layer's own bound, whatever the terminal settings allow: the newest part is kept.
    const kept = tailByBytes(body, TOOL_OUTPUT_CAP_BYTES);
    body = kept.text;
    head = { ...json, truncated: true, toolCapDroppedBytes: kept.dropped };
  }
  const parts = [new vscode.LanguageModelTextPart(JSON.stringify(head))];
  if (body) parts.push(new vscode.LanguageModelTextPart(body));
  return new vscode.LanguageModelToolResult(parts);
}

/** Cap of the terminal text in one tool result (UTF-8 bytes), independent of dsh.terminal.maxReadBytes. */
export const TOOL_OUTPUT_CAP_BYTES = 256 * 1024;

/**
 * A markdown code block of `code` in full that survives backticks inside it (CommonMark § 4.5: a
 * fence longer than any backtick run); characters a terminal would act on are shown as `⟨U+0007⟩`.
 */
export function codeBlock(code: string, language = 'sh'): vscode.MarkdownString {
  const shown = visibleText(code, true);
  const longest = Math.max(2, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return new vscode.MarkdownString(`${fence}${language}\n${shown}\n${fence}`);
}

/**
 * Text a model or a program supplied (a session name, a session id, a signal name), made inert
 * for markdown: controls, line breaks and bidirectional controls shown as `⟨U+202E⟩`, every ASCII
 * punctuation character backslash-escaped (CommonMark § 2.4), so it renders as the same text and
 * never as a link, an image, emphasis or HTML.
 */
export function escapeMarkdown(text: string): string {
  return visibleText(String(text)).replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** A markdown code span of one-line text (a path, a command line), safe for any backticks in it (CommonMark § 6.1). */
export function inlineCode(text: string): string {
  const shown = visibleText(String(text));
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = shown.startsWith('`') || shown.endsWith('`') || shown === '' ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/** Text over either bound gets its size stated under the code block that shows it in full. */
const LONG_TEXT_LINES = 10;
const LONG_TEXT_BYTES = 1024;

/** How a confirmation names the program that reads the input, and what happens to the input. */
function receiverText(target: SendTarget, keys: boolean): string {
  const r = target.receiver;
  const then = keys ? 'nothing is appended' : 'then Enter';
  switch (r.kind) {
    case 'shell-prompt':
      return r.lineEditing
        ? `**${escapeMarkdown(r.process.command)} at its prompt**: ${keys ? 'the keys edit its command line' : 'pasted as one piece into an empty command line, then Enter runs it'}${keys ? `; ${then}` : ''}.`
        : `**${escapeMarkdown(r.process.command)} at its prompt** (line editing off): ${keys ? then : 'typed, then Enter runs it'}.`;
    case 'shell-continuation':
      return `**${escapeMarkdown(r.process.command)} at its continuation prompt**: ${keys ? 'the keys edit the unfinished command' : 'pasted as the next line of an unfinished command'}; ${then}.`;
    case 'program': {
      const who = `${inlineCode(r.process.command)} (pid ${r.process.pid})`;
      if (r.reading === false) return `${who}, which is running and not reading input now: the send is refused unless it reads by then.`;
      return `${who}${r.reading ? ', which is waiting for input' : ''}: ${keys ? 'pressed' : 'typed'}, ${then}.`;
    }
    case 'exited':
      return 'nobody: the shell has exited, so the send will fail.';
  }
}

/** The shell's folder as a confirmation states it: current, or the opening one when unreadable. */
function folderText(target: SendTarget): string {
  return target.cwdIsCurrent
    ? `in ${inlineCode(target.cwd)}`
    : `opened in ${inlineCode(target.cwd)} (its current folder could not be read and may differ)`;
}

/**
 * The confirmation body of a send: the exact text in full (with its size when long) or the keys by
 * name, who receives it, the session and the shell's current folder.
 */
function sendConfirmation(typed: TypedInput, session: SessionInfo, target: SendTarget): vscode.MarkdownString {
  let message: vscode.MarkdownString;
  if (typed.kind === 'text') {
    message = codeBlock(typed.text, target.receiver.kind.startsWith('shell') ? 'sh' : 'text');
    const bytes = Buffer.byteLength(typed.text);
    const lines = typed.text.replace(/\n$/, '').split('\n').length;
    if (lines > LONG_TEXT_LINES || bytes > LONG_TEXT_BYTES) message.appendMarkdown(`\n\n${lines} lines, ${bytes} bytes, shown in full above.`);
  } else {
    message = new vscode.MarkdownString(`Press keys: ${typed.keys.map((k) => inlineCode(keyLabel(k))).join(' ')}`);
  }
  message.appendMarkdown(`\n\nReceiver: ${receiverText(target, typed.kind === 'keys')}`);
  message.appendMarkdown(`\n\nSession ${escapeMarkdown(session.sessionId)} (${escapeMarkdown(session.name)}), ${folderText(target)}.`);
  if (session.takenOver) message.appendMarkdown('\n\nThe user has taken this session over: the send will be refused.');
  return message;
}

/**
 * The receivers shown in confirmations, kept until the confirmed call runs: its send then refuses
 * (RECEIVER_CHANGED, nothing typed) when another program would read the input by then.
 */
class ConfirmedReceivers {
  private readonly byCall = new Map<string, ReceiverIdentity>();
  private static readonly MAX = 64;

  remember(call: unknown, identity: ReceiverIdentity): void {
    const key = JSON.stringify(call);
    this.byCall.delete(key);
    this.byCall.set(key, identity);
    if (this.byCall.size > ConfirmedReceivers.MAX) this.byCall.delete(this.byCall.keys().next().value!);
  }

  take(call: unknown): ReceiverIdentity | undefined {
    const key = JSON.stringify(call);
    const identity = this.byCall.get(key);
    this.byCall.delete(key);
    return identity;
  }
}

/** An AbortSignal that aborts when the tool call's token is cancelled. */
export function abortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort('cancelled');
  token.onCancellationRequested(() => controller.abort('the tool call was cancelled'));
  return controller.signal;
}

/** `input[key]` as a non-empty string. @throws TerminalError INVALID_ARGUMENT otherwise. */
export function requireString(input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || !value) {
    throw new TerminalError('INVALID_ARGUMENT', `${key} is required and must be a non-empty string`);
  }
  return value;
}

/** `input[key]` as an integer ≥ `min`, or undefined. @throws TerminalError INVALID_ARGUMENT otherwise. */
export function optionalInteger(input: Record<string, unknown>, key: string, min: number): number | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TerminalError('INVALID_ARGUMENT', `${key} must be an integer ≥ ${min} (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** Why terminal tools refuse in Restricted Mode, and how to lift it. */
export const UNTRUSTED_MESSAGE =
  'DSH Bridge terminals are disabled because this workspace is not trusted (Restricted Mode): running shell commands could execute code from it. ' +
  'The user can trust it with the command "Workspaces: Manage Workspace Trust". Code navigation (dsh_lsp) still works.';

function optionalBoolean(input: Record<string, unknown>, key: string): boolean | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new TerminalError('INVALID_ARGUMENT', `${key} must be true or false (got ${JSON.stringify(value)})`);
  return value;
}

/** Base of the terminal tools: trust and availability checks on every call, then `run`. */
export abstract class TerminalTool<T> implements vscode.LanguageModelTool<T> {
  constructor(protected readonly ctx: TerminalToolContext) {}

  abstract prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<T>): vscode.PreparedToolInvocation;

  async invoke(options: vscode.LanguageModelToolInvocationOptions<T>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    // Re-checked on every call: any extension can invoke a tool, whatever its `when` clause says.
    if (!vscode.workspace.isTrusted) throw new Error(UNTRUSTED_MESSAGE);
    const why = this.ctx.unavailable();
    if (why) throw new Error(`DSH Bridge terminals are unavailable on this machine: ${why}. Code navigation tools still work.`);
    return this.run((options.input ?? {}) as T & Record<string, unknown>, token);
  }

  /** The caller's view of one of the tools' sessions, or undefined (for confirmation texts). */
  protected session(sessionId: unknown): SessionInfo | undefined {
    return this.ctx.service.list(this.ctx.owner).find((s) => s.sessionId === sessionId);
  }

  /** Where a send to one of the tools' sessions would go now, or undefined when it is gone. */
  protected target(sessionId: string): SendTarget | undefined {
    try {
      return this.ctx.service.sendTarget(this.ctx.owner, sessionId);
    } catch {
      return undefined;
    }
  }

  protected abstract run(input: T & Record<string, unknown>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult>;
}

/** Input of `dsh_terminal_open`. */
export interface OpenInput {
  name?: string;
  cwd?: string;
}

export class OpenTool extends TerminalTool<OpenInput> {
  static readonly toolName = 'dsh_terminal_open';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<OpenInput>): vscode.PreparedToolInvocation {
    const { name, cwd } = options.input;
    const folder = typeof cwd === 'string' ? inlineCode(cwd) : (defaultCwd() && inlineCode(defaultCwd()!)) ?? 'your home folder';
    const named = typeof name === 'string' && name ? ` named ${escapeMarkdown(name)}` : '';
    return {
      invocationMessage: new vscode.MarkdownString(`Opening an agent terminal${named}`),
      confirmationMessages: {
        title: 'Open an agent terminal?',
        message: new vscode.MarkdownString(`Start a bash session${named} the agent can type into, in ${folder}.`),
      },
    };
  }

  protected async run(input: OpenInput & Record<string, unknown>, token: vscode.CancellationToken) {
    if (input.name !== undefined && typeof input.name !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'name must be a string');
    if (input.cwd !== undefined && typeof input.cwd !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'cwd must be a string: an absolute folder path');
    const info = await this.ctx.service.open(this.ctx.owner, { name: input.name, cwd: input.cwd ?? defaultCwd(), signal: abortSignal(token) });
    const motd = this.ctx.service.motd(this.ctx.owner, info.sessionId);
    return toolResult({ sessionId: info.sessionId, name: info.name, cwd: info.cwd, sessionStatus: info.sessionStatus }, motd || undefined);
  }
}

/** Input of `dsh_terminal_send`: exactly one of `input` (text) and `keys` (key names). */
export interface SendInput {
  sessionId: string;
  /** Text to type; a newline is appended when missing. */
  input?: string;
  /** Keys to press by name (see input.ts); nothing is appended. */
  keys?: string[];
  timeoutMs?: number;
  /** Return at once with a job id; read the output with dsh_terminal_output. */
  background?: boolean;
}

export class SendTool extends TerminalTool<SendInput> {
  static readonly toolName = 'dsh_terminal_send';

  private readonly confirmed = new ConfirmedReceivers();

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SendInput>): vscode.PreparedToolInvocation {
    const { sessionId, input, keys } = options.input;
    const session = this.session(sessionId);
    const target = session && this.target(session.sessionId);
    let typed: TypedInput;
    try {
      typed = checkSendInput({ input, keys });
    } catch {
      // Refused before anything is typed, with the same error, when the call runs.
      return { invocationMessage: new vscode.MarkdownString(`Sending to agent terminal ${escapeMarkdown(String(sessionId))}`) };
    }
    const verb = typed.kind === 'keys' ? 'Pressing keys in' : 'Sending input to';
    if (!session || !target) {
      return { invocationMessage: new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(String(sessionId))} (no such session)`) };
    }
    this.confirmed.remember([sessionId, input, keys], receiverIdentity(target.receiver));
    const kind = target.receiver.kind;
    const title =
      typed.kind === 'keys'
        ? `Press keys in agent terminal ${session.sessionId}?`
        : kind === 'program'
          ? `Type into a program in agent terminal ${session.sessionId}?`
          : kind === 'exited'
            ? `Send to agent terminal ${session.sessionId}?`
            : `Run in agent terminal ${session.sessionId}?`;
    return {
      invocationMessage: new vscode.MarkdownString(`${verb} agent terminal ${escapeMarkdown(session.sessionId)}`),
      confirmationMessages: { title, message: sendConfirmation(typed, session, target) },
    };
  }

  protected async run(input: SendInput & Record<string, unknown>, token: vscode.CancellationToken) {
    const sessionId = requireString(input, 'sessionId');
    const timeoutMs = optionalInteger(input, 'timeoutMs', 1);
    if (input.background !== undefined && typeof input.background !== 'boolean') {
      throw new TerminalError('INVALID_ARGUMENT', 'background must be true or false');
    }
    const expectReceiver = this.confirmed.take([input.sessionId, input.input, input.keys]);
    const request = { input: input.input, keys: input.keys, timeoutMs, expectReceiver };
    if (input.background) {
      const { jobId } = this.ctx.service.startBackground(this.ctx.owner, sessionId, request);
      return toolResult({ sessionId, jobId, background: true, hint: 'read its output with dsh_terminal_output {sessionId, jobId} until done is true' });
    }
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { ...request, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }
}

/** The send tools' result: the JSON fields of `dsh_terminal_send`, then the output as text. */
export function sendResult(sessionId: string, r: SendResult): vscode.LanguageModelToolResult {
  const json: Record<string, unknown> = {
    sessionId,
    waitReason: r.waitReason,
    waiting: r.waiting,
    match: r.match,
    sessionStatus: r.sessionStatus,
    exitCode: r.exitCode,
    foreground: r.foreground,
    echoOff: r.echoOff,
    alternateScreen: r.alternateScreen,
    truncated: r.truncated,
    droppedBytes: r.truncated ? r.droppedBytes : undefined,
    renderLimited: r.renderLimited,
    hint: r.truncated ? 'the viewport holds only the newest output; page older output with dsh_terminal_read (offset counts lines back from the newest)' : undefined,
    probe: r.probe,
    durationMs: r.durationMs,
  };
  return toolResult(json, r.output);
}

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
  static readonly toolName = 'dsh_run';
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
    let message: vscode.MarkdownString;
    if (session && target) {
      this.confirmed.remember([session.sessionId, command], receiverIdentity(target.receiver));
      message = sendConfirmation({ kind: 'text', text }, session, target);
    } else {
      const folder = defaultCwd();
      message = codeBlock(text);
      message.appendMarkdown(`\n\nReceiver: **bash at its prompt** in a new session, ${folder ? `in ${inlineCode(folder)}` : 'in your home folder'}: pasted as one piece, then Enter runs it.`);
    }
    return { invocationMessage, confirmationMessages: { title: 'Run in the agent terminal?', message } };
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

/**
 * Validates dsh_run's command as text (input.ts rules).
 * @throws TerminalError INVALID_ARGUMENT naming a refused character.
 */
function checkRunCommand(command: unknown): string {
  if (typeof command !== 'string' || !command) throw new TerminalError('INVALID_ARGUMENT', 'command is required and must be a non-empty string');
  return checkText(command, 'command', 'To press keys (Ctrl-C, arrows, Ctrl-D), use dsh_terminal_send with keys on the session id dsh_run returned');
}

/** Input of `dsh_terminal_read`. */
export interface ReadInput {
  sessionId: string;
  offset?: number;
  count?: number;
  /** The lines as the PTY produced them, escapes included, instead of the rendered text. */
  raw?: boolean;
  /** The terminal's visible screen instead of a scrollback page (full-screen programs). */
  screen?: boolean;
}

export class ReadTool extends TerminalTool<ReadInput> {
  static readonly toolName = 'dsh_terminal_read';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: new vscode.MarkdownString(`Reading agent terminal ${escapeMarkdown(String(options.input.sessionId))}`) };
  }

  protected async run(input: ReadInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const page = this.ctx.service.read(this.ctx.owner, sessionId, {
      offset: optionalInteger(input, 'offset', 0),
      count: optionalInteger(input, 'count', 1),
      raw: optionalBoolean(input, 'raw'),
      screen: optionalBoolean(input, 'screen'),
    });
    const { text, ...json } = page;
    return toolResult({ sessionId, ...json, nextOffset: page.lineEnd < page.totalLines ? page.lineEnd : undefined }, text);
  }
}

export class ListTool extends TerminalTool<Record<string, never>> {
  static readonly toolName = 'dsh_terminal_list';

  prepareInvocation(): vscode.PreparedToolInvocation {
    return { invocationMessage: 'Listing agent terminals' };
  }

  protected async run() {
    const sessions = this.ctx.service.list(this.ctx.owner).map((s) => ({
      sessionId: s.sessionId,
      name: s.name,
      cwd: s.cwd,
      sessionStatus: s.sessionStatus,
      busy: s.busy,
      foregroundCommand: s.foregroundCommand,
    }));
    return toolResult({ sessions });
  }
}

/** Input of `dsh_terminal_output`. */
export interface OutputInput {
  sessionId: string;
  jobId: string;
}

export class OutputTool extends TerminalTool<OutputInput> {
  static readonly toolName = 'dsh_terminal_output';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<OutputInput>): vscode.PreparedToolInvocation {
    return {
      invocationMessage: new vscode.MarkdownString(`Reading new output of ${escapeMarkdown(String(options.input.jobId))} in agent terminal ${escapeMarkdown(String(options.input.sessionId))}`),
    };
  }

  protected async run(input: OutputInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const { text, ...json } = this.ctx.service.output(this.ctx.owner, sessionId, requireString(input, 'jobId'));
    return toolResult({ sessionId, ...json }, text);
  }
}

/** Input of `dsh_terminal_signal`. */
export interface SignalInput {
  sessionId: string;
  signal: string;
}

export class SignalTool extends TerminalTool<SignalInput> {
  static readonly toolName = 'dsh_terminal_signal';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SignalInput>): vscode.PreparedToolInvocation {
    const { sessionId, signal } = options.input;
    const session = this.session(sessionId);
    const where = session && this.target(session.sessionId);
    const id = session ? session.sessionId : 'unknown session';
    const name = (ALLOWED_SIGNALS as readonly unknown[]).includes(signal) ? (signal as string) : 'a signal';
    const receiver = where?.receiver;
    const target = receiver?.kind === 'program' ? inlineCode(receiver.process.command) : 'the shell of the session';
    return {
      invocationMessage: new vscode.MarkdownString(`Sending ${escapeMarkdown(String(signal))} to agent terminal ${escapeMarkdown(String(sessionId))}`),
      confirmationMessages: {
        title: `Send ${name} in agent terminal ${id}?`,
        message: new vscode.MarkdownString(
          `Deliver **${escapeMarkdown(String(signal))}** to the foreground process group: ${target}${session ? ` (session ${escapeMarkdown(session.sessionId)} (${escapeMarkdown(session.name)})${where ? `, ${folderText(where)}` : ''})` : ''}.`,
        ),
      },
    };
  }

  protected async run(input: SignalInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const r = this.ctx.service.signal(this.ctx.owner, sessionId, requireString(input, 'signal'));
    // Returns once the signal took effect, so the next send's confirmation names who reads then
    // (the shell back at its prompt, or the program reading again), not the program that is ending.
    if (r.delivered) await this.ctx.service.settled(this.ctx.owner, sessionId);
    return toolResult({ sessionId, ...r });
  }
}

/** Input of `dsh_terminal_close`. */
export interface CloseInput {
  sessionId: string;
}

export class CloseTool extends TerminalTool<CloseInput> {
  static readonly toolName = 'dsh_terminal_close';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<CloseInput>): vscode.PreparedToolInvocation {
    const { sessionId } = options.input;
    const session = this.session(sessionId);
    const where = session && this.target(session.sessionId);
    const running = session?.foregroundCommand ? ` ${inlineCode(session.foregroundCommand)} is still running.` : '';
    const id = session ? session.sessionId : 'unknown session';
    return {
      invocationMessage: new vscode.MarkdownString(`Closing agent terminal ${escapeMarkdown(String(sessionId))}`),
      confirmationMessages: {
        title: `Close agent terminal ${id}?`,
        message: new vscode.MarkdownString(
          `End the shell of ${escapeMarkdown(String(sessionId))}${session ? ` (${escapeMarkdown(session.name)}${where ? `, ${folderText(where)}` : ''})` : ''} and every process it started.${running}`,
        ),
      },
    };
  }

  protected async run(input: CloseInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const closed = await closeAgentSession(this.ctx, sessionId, 'closed by dsh_terminal_close', 'the agent (dsh_terminal_close)');
    return toolResult({ sessionId, closed });
  }
}

/** Input of `dsh_terminal_wait`. */
export interface WaitInput {
  sessionId: string;
  timeoutMs?: number;
  /** A JavaScript regular expression matched against new output (see untilPattern.ts). */
  until?: string;
}

/**
 * `dsh_terminal_wait`: keep waiting for a running command without typing anything. After a send
 * returned `timeout` or `inferred_idle` ("I returned for now": the command may still run), the model
 * waits for its next wait reason, exactly as a send would, or for a line it expects (`until`).
 */
export class WaitTool extends TerminalTool<WaitInput> {
  static readonly toolName = 'dsh_terminal_wait';

  /** Types nothing: no confirmation, as for reading. */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WaitInput>): vscode.PreparedToolInvocation {
    const { sessionId, until } = options.input;
    const pattern = typeof until === 'string' ? ` until output matches ${inlineCode(until.slice(0, 80))}` : '';
    return { invocationMessage: new vscode.MarkdownString(`Waiting for agent terminal ${escapeMarkdown(String(sessionId))}${pattern}`) };
  }

  protected async run(input: WaitInput & Record<string, unknown>, token: vscode.CancellationToken) {
    const sessionId = requireString(input, 'sessionId');
    const timeoutMs = optionalInteger(input, 'timeoutMs', 1);
    const until = input.until === undefined || input.until === null ? undefined : compileUntil(input.until);
    const r = await this.ctx.service.wait(this.ctx.owner, sessionId, { timeoutMs, until, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }
}

/** The first workspace folder's path, the natural place for an agent's shell; else undefined. */
export function defaultCwd(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

/**
 * One instance of every terminal tool acting for `ctx.owner`, by tool name: the Language Model
 * Tools use the tools' owner, each MCP connection its own.
 */
export function createTerminalTools(ctx: TerminalToolContext): Map<string, vscode.LanguageModelTool<object>> {
  const tools: Array<{ toolName: string; new (ctx: TerminalToolContext): vscode.LanguageModelTool<object> }> = [
    OpenTool, SendTool, ReadTool, ListTool, CloseTool, SignalTool, RunTool, OutputTool, WaitTool,
  ];
  return new Map(tools.map((T) => [T.toolName, new T(ctx)]));
}

/** Registers the terminal tools; disposed with the returned Disposable. */
export function registerTerminalTools(ctx: TerminalToolContext): vscode.Disposable {
  return vscode.Disposable.from(...[...createTerminalTools(ctx)].map(([name, tool]) => vscode.lm.registerTool(name, tool)));
}
