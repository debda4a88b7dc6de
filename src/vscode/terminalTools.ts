/**
 * The terminal Language Model Tools. Each class owns its name, a typed input mirroring its
 * `inputSchema` in package.json, `prepareInvocation` (an invocation message always; confirmation
 * only for side effects, with the exact command in a code block) and `invoke`, which throws errors
 * the model can act on. Results: a first text part holding a JSON object, then the terminal text
 * verbatim as a second part where there is any.
 */
import * as vscode from 'vscode';
import { TerminalError } from '../terminal/errors';
import { tailByBytes } from '../terminal/scrollback';
import type { Owner, SessionInfo, TerminalService } from '../terminal/service';
import type { SendResult } from '../terminal/types';
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

/** A markdown code block that survives backticks inside `code` (CommonMark: a longer fence). */
export function codeBlock(code: string, language = 'sh'): vscode.MarkdownString {
  const longest = Math.max(2, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return new vscode.MarkdownString(`${fence}${language}\n${code}\n${fence}`);
}

function abortSignal(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort('cancelled');
  token.onCancellationRequested(() => controller.abort('the tool call was cancelled'));
  return controller.signal;
}

function requireString(input: Record<string, unknown>, key: string): string {
  const value = input[key];
  if (typeof value !== 'string' || !value) {
    throw new TerminalError('INVALID_ARGUMENT', `${key} is required and must be a non-empty string`);
  }
  return value;
}

function optionalInteger(input: Record<string, unknown>, key: string, min: number): number | undefined {
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

abstract class TerminalTool<T> implements vscode.LanguageModelTool<T> {
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
    const cwd = options.input.cwd ?? defaultCwd() ?? 'your home folder';
    return {
      invocationMessage: `Opening an agent terminal${options.input.name ? ` "${options.input.name}"` : ''}`,
      confirmationMessages: {
        title: 'Open an agent terminal?',
        message: new vscode.MarkdownString(`Start a bash session the agent can type into, in \`${cwd}\`.`),
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

/** Input of `dsh_terminal_send`. */
export interface SendInput {
  sessionId: string;
  input: string;
  timeoutMs?: number;
  /** Return at once with a job id; read the output with dsh_terminal_output. */
  background?: boolean;
}

export class SendTool extends TerminalTool<SendInput> {
  static readonly toolName = 'dsh_terminal_send';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<SendInput>): vscode.PreparedToolInvocation {
    const { sessionId, input } = options.input;
    const session = this.session(sessionId);
    const where = session ? `${sessionId} (${session.name}) in \`${session.cwd}\`` : String(sessionId);
    const message = codeBlock(String(input ?? ''));
    message.appendMarkdown(`\n\nSession ${where}`);
    return {
      invocationMessage: `Sending input to agent terminal ${sessionId}`,
      confirmationMessages: { title: `Run in agent terminal ${sessionId}?`, message },
    };
  }

  protected async run(input: SendInput & Record<string, unknown>, token: vscode.CancellationToken) {
    const sessionId = requireString(input, 'sessionId');
    if (typeof input.input !== 'string') throw new TerminalError('INVALID_ARGUMENT', 'input is required: the text to type, e.g. a command line');
    const timeoutMs = optionalInteger(input, 'timeoutMs', 1);
    if (input.background !== undefined && typeof input.background !== 'boolean') {
      throw new TerminalError('INVALID_ARGUMENT', 'background must be true or false');
    }
    if (input.background) {
      const { jobId } = this.ctx.service.startBackground(this.ctx.owner, sessionId, { input: input.input, timeoutMs });
      return toolResult({ sessionId, jobId, background: true, hint: 'read its output with dsh_terminal_output {sessionId, jobId} until done is true' });
    }
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { input: input.input, timeoutMs, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }
}

/** The send tools' result: the JSON fields of `dsh_terminal_send`, then the output as text. */
function sendResult(sessionId: string, r: SendResult): vscode.LanguageModelToolResult {
  const json: Record<string, unknown> = {
    sessionId,
    waitReason: r.waitReason,
    waiting: r.waiting,
    sessionStatus: r.sessionStatus,
    exitCode: r.exitCode,
    foreground: r.foreground,
    echoOff: r.echoOff,
    alternateScreen: r.alternateScreen,
    truncated: r.truncated,
    droppedBytes: r.truncated ? r.droppedBytes : undefined,
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

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RunInput>): vscode.PreparedToolInvocation {
    const session = this.defaultSession();
    const message = codeBlock(String(options.input.command ?? ''));
    message.appendMarkdown(`\n\n${session ? `Session ${session.sessionId} in \`${session.cwd}\`` : `A new session in \`${defaultCwd() ?? 'your home folder'}\``}`);
    return {
      invocationMessage: 'Running a command in the agent terminal',
      confirmationMessages: { title: 'Run in the agent terminal?', message },
    };
  }

  protected async run(input: RunInput & Record<string, unknown>, token: vscode.CancellationToken) {
    const command = requireString(input, 'command');
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
    const r = await this.ctx.service.send(this.ctx.owner, sessionId, { input: command, timeoutMs, signal: abortSignal(token) });
    return sendResult(sessionId, r);
  }

  private defaultSession() {
    return this.ctx.service.list(this.ctx.owner).find((s) => s.name === RunTool.sessionName && s.sessionStatus.kind === 'running');
  }
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
    return { invocationMessage: `Reading agent terminal ${options.input.sessionId}` };
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
    return { invocationMessage: `Reading new output of ${options.input.jobId} in agent terminal ${options.input.sessionId}` };
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
    const target = session?.foregroundCommand ? `\`${session.foregroundCommand}\`` : 'the shell of the session';
    return {
      invocationMessage: `Sending ${signal} to agent terminal ${sessionId}`,
      confirmationMessages: {
        title: `Send ${signal} in agent terminal ${sessionId}?`,
        message: new vscode.MarkdownString(`Deliver **${signal}** to the foreground process group: ${target}${session ? ` (in \`${session.cwd}\`)` : ''}.`),
      },
    };
  }

  protected async run(input: SignalInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const r = this.ctx.service.signal(this.ctx.owner, sessionId, requireString(input, 'signal'));
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
    const running = session?.foregroundCommand ? ` \`${session.foregroundCommand}\` is still running.` : '';
    return {
      invocationMessage: `Closing agent terminal ${sessionId}`,
      confirmationMessages: {
        title: `Close agent terminal ${sessionId}?`,
        message: new vscode.MarkdownString(`End the shell of ${sessionId}${session ? ` (in \`${session.cwd}\`)` : ''} and every process it started.${running}`),
      },
    };
  }

  protected async run(input: CloseInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const closed = await closeAgentSession(this.ctx, sessionId, 'closed by dsh_terminal_close', 'the agent (dsh_terminal_close)');
    return toolResult({ sessionId, closed });
  }
}

/** The first workspace folder's path, the natural place for an agent's shell; else undefined. */
export function defaultCwd(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
}

/** Registers the terminal tools; disposed with the returned Disposable. */
export function registerTerminalTools(ctx: TerminalToolContext): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.lm.registerTool(OpenTool.toolName, new OpenTool(ctx)),
    vscode.lm.registerTool(SendTool.toolName, new SendTool(ctx)),
    vscode.lm.registerTool(ReadTool.toolName, new ReadTool(ctx)),
    vscode.lm.registerTool(ListTool.toolName, new ListTool(ctx)),
    vscode.lm.registerTool(CloseTool.toolName, new CloseTool(ctx)),
    vscode.lm.registerTool(SignalTool.toolName, new SignalTool(ctx)),
    vscode.lm.registerTool(RunTool.toolName, new RunTool(ctx)),
    vscode.lm.registerTool(OutputTool.toolName, new OutputTool(ctx)),
  );
}
