import * as vscode from 'vscode';
import { TerminalError } from '../../../terminal/errors';
import { escapeMarkdown, inlineCode } from '../markdownText';
import { toolResult } from '../toolResult';
import { TerminalTool } from './terminalTool';
import type { ToolInput } from '../../../tools/declaration';
import { TERMINAL_READ } from '../../../tools/declarations/terminal';

/** Input of `dsh_terminal_read`: a page (`offset`, `count`, `raw`, `screen`, `command`) or a search (`search` and its options). */
export type ReadInput = ToolInput<typeof TERMINAL_READ>;

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
  static readonly toolName = TERMINAL_READ.name;

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadInput>): vscode.PreparedToolInvocation {
    const { sessionId, search, command } = options.input;
    const what =
      typeof search === 'string'
        ? `Searching agent terminal ${escapeMarkdown(String(sessionId))} for ${inlineCode(search.slice(0, 80))}`
        : `Reading agent terminal ${escapeMarkdown(String(sessionId))}`;
    return { invocationMessage: new vscode.MarkdownString(`${what}${typeof command === 'number' ? ` (command ${command})` : ''}`) };
  }

  protected async run(input: ReadInput) {
    const { sessionId, command, offset } = input;
    const given = (key: keyof ReadInput) => input[key] !== undefined;
    if (input.search !== undefined) {
      const misplaced = PAGE_ONLY.filter(given);
      if (misplaced.length)
        throw new TerminalError(
          'INVALID_ARGUMENT',
          `${misplaced.join(', ')} do not apply to a search: it returns matching lines (maxMatches per page) as plain text`,
        );
      const found = await this.ctx.service.search(this.ctx.owner, sessionId, {
        pattern: input.search,
        regex: input.regex,
        ignoreCase: input.ignoreCase,
        context: input.context,
        maxMatches: input.maxMatches,
        timeoutMs: input.timeoutMs,
        offset,
        command,
      });
      return toolResult({ sessionId, ...(command !== undefined ? { command } : {}), ...found });
    }
    const misplaced = SEARCH_ONLY.filter(given);
    if (misplaced.length) throw new TerminalError('INVALID_ARGUMENT', `${misplaced.join(', ')} apply only with search (the text to find)`);
    const page = await this.ctx.service.readAsync(this.ctx.owner, sessionId, {
      offset,
      count: input.count,
      raw: input.raw,
      screen: input.screen,
      command,
    });
    const { text, ...json } = page;
    const record = command === undefined ? undefined : this.ctx.service.command(this.ctx.owner, sessionId, command);
    return toolResult(
      { sessionId, ...json, nextOffset: page.lineEnd < page.totalLines ? page.lineEnd : undefined, ...(record ? { command: record } : {}) },
      text,
    );
  }
}
