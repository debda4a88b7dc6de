import * as vscode from 'vscode';
import { compileUntil } from '../../../terminal/readiness/untilPattern';
import { escapeMarkdown, inlineCode } from '../markdownText';
import { checkUntilListening } from '../../../terminal/requestChecks';
import { sendResult } from './sendResult';
import { abortSignal } from '../../cancellation';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_WAIT } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_wait`; `until` is a JavaScript regular expression matched against new output (see untilPattern.ts). */
export type WaitInput = ToolInput<typeof TERMINAL_WAIT>;

/**
 * `dsh_terminal_wait`: keep waiting for a running command without typing anything. After a send
 * returned `timeout` or `inferred_idle` ("I returned for now": the command may still run), the model
 * waits for its next wait reason, exactly as a send would, or for a line it expects (`until`).
 */
export class WaitTool extends TerminalTool<WaitInput> {
  static readonly toolName = TERMINAL_WAIT.name;

  /** Types nothing: no confirmation, as for reading. */
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<WaitInput>): vscode.PreparedToolInvocation {
    const { sessionId, until } = options.input;
    const { untilListening } = options.input;
    const pattern =
      (typeof until === 'string' ? ` until output matches ${inlineCode(until.slice(0, 80))}` : '') +
      (untilListening === true
        ? ' until a new port listens'
        : typeof untilListening === 'number'
          ? ` until port ${escapeMarkdown(String(untilListening))} listens`
          : '');
    return { invocationMessage: new vscode.MarkdownString(`Waiting for agent terminal ${escapeMarkdown(String(sessionId))}${pattern}`) };
  }

  protected async run({ sessionId, timeoutMs, until: pattern, untilListening: listen }: WaitInput, token: vscode.CancellationToken) {
    const until = pattern === undefined ? undefined : compileUntil(pattern);
    const untilListening = listeningInput(listen);
    const r = await this.ctx.service.wait(this.ctx.owner, sessionId, {
      timeoutMs,
      until,
      signal: abortSignal(token),
      ...(untilListening === undefined ? {} : { untilListening }),
    });
    return sendResult(sessionId, r);
  }
}

/**
 * The tool's `untilListening` as the service takes it: a port, `true`, or undefined (absent, null or
 * false: no port is waited for).
 * @throws TerminalError INVALID_ARGUMENT for anything else, naming what is valid.
 */
function listeningInput(value: unknown): number | true | undefined {
  if (value === false) return undefined;
  checkUntilListening(value);
  return value ?? undefined;
}
