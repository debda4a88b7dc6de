import * as vscode from 'vscode';
import { escapeMarkdown } from '../markdownText';
import { toolResult } from '../toolResult';
import { optionalBoolean, optionalInteger, requireString } from './args';
import { TerminalTool } from './terminalTool';

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

/**
 * `dsh_terminal_read`: a page of a session's scrollback (`offset` lines back from the newest,
 * `count` lines, byte-capped) or its visible screen; `nextOffset` pages further back.
 */
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
