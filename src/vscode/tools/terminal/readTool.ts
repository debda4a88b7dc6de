import * as vscode from 'vscode';
import { TerminalError } from '../../../terminal/errors';
import { escapeMarkdown, inlineCode } from '../markdownText';
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
  /** Only this command's output (its index in the session's command record). */
  command?: number;
  /** Find lines with this text (or regular expression) instead of reading a page. */
  search?: string;
  regex?: boolean;
  ignoreCase?: boolean;
  context?: number;
  maxMatches?: number;
  timeoutMs?: number;
}

/** Fields that apply only to a search, and those that apply only to a page. */
const SEARCH_ONLY = ['regex', 'ignoreCase', 'context', 'maxMatches', 'timeoutMs'] as const;
const PAGE_ONLY = ['count', 'raw', 'screen'] as const;

/**
 * `dsh_terminal_read`: a page of a session's scrollback (`offset` lines back from the newest,
 * `count` lines, byte-capped), of one command's output (`command`), or its visible screen;
 * `nextOffset` pages further back. With `search`: the matching lines, newest first
 * (src/terminal/output/scrollbackSearch.ts).
 */
export class ReadTool extends TerminalTool<ReadInput> {
  static readonly toolName = 'dsh_terminal_read';

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    const { sessionId, search, command } = options.input;
    const what = typeof search === 'string' ? `Searching agent terminal ${escapeMarkdown(String(sessionId))} for ${inlineCode(search.slice(0, 80))}` : `Reading agent terminal ${escapeMarkdown(String(sessionId))}`;
    return { invocationMessage: new vscode.MarkdownString(`${what}${typeof command === 'number' ? ` (command ${command})` : ''}`) };
  }

  protected async run(input: ReadInput & Record<string, unknown>) {
    const sessionId = requireString(input, 'sessionId');
    const command = optionalInteger(input, 'command', 1);
    const offset = optionalInteger(input, 'offset', 0);
    const given = (key: string) => input[key] !== undefined && input[key] !== null;
    if (given('search')) {
      const misplaced = PAGE_ONLY.filter(given);
      if (misplaced.length) throw new TerminalError('INVALID_ARGUMENT', `${misplaced.join(', ')} do not apply to a search: it returns matching lines (maxMatches per page) as plain text`);
      const pattern = requireString(input, 'search');
      const found = await this.ctx.service.search(this.ctx.owner, sessionId, {
        pattern,
        regex: optionalBoolean(input, 'regex'),
        ignoreCase: optionalBoolean(input, 'ignoreCase'),
        context: optionalInteger(input, 'context', 0),
        maxMatches: optionalInteger(input, 'maxMatches', 1),
        timeoutMs: optionalInteger(input, 'timeoutMs', 1),
        offset,
        command,
      });
      return toolResult({ sessionId, ...(command !== undefined ? { command } : {}), ...found });
    }
    const misplaced = SEARCH_ONLY.filter(given);
    if (misplaced.length) throw new TerminalError('INVALID_ARGUMENT', `${misplaced.join(', ')} apply only with search (the text to find)`);
    const page = await this.ctx.service.readAsync(this.ctx.owner, sessionId, {
      offset,
      count: optionalInteger(input, 'count', 1),
      raw: optionalBoolean(input, 'raw'),
      screen: optionalBoolean(input, 'screen'),
      command,
    });
    const { text, ...json } = page;
    const record = command === undefined ? undefined : this.ctx.service.command(this.ctx.owner, sessionId, command);
    return toolResult({ sessionId, ...json, nextOffset: page.lineEnd < page.totalLines ? page.lineEnd : undefined, ...(record ? { command: record } : {}) }, text);
  }
}
