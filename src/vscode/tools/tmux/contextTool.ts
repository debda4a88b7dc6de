/**
 * The `dsh_tmux_context` Language Model Tool: where the extension host runs in tmux, from the
 * detection in `src/tmux/` (plain Node), with `unchanged` saying whether the answer is news.
 */
import * as vscode from 'vscode';
import { TmuxContextNotes } from '../../../tmux/contextNotes';
import type { TmuxDetection } from '../../../tmux/detect';

/** Input of `dsh_tmux_context`: none (`inputSchema` is an empty object). */
export type TmuxContextInput = Record<string, never>;

/**
 * `dsh_tmux_context {}`: the extension host's tmux location as JSON, `{inPane: true, session,
 * windowIndex, windowName, paneIndex, paneId, paneTty, paneCommand, unchanged}` or `{inPane: false,
 * reason, unchanged}`.
 *
 * `unchanged` is true when the answer equals the previous one this tool returned. VS Code does not
 * tell a tool who calls it (no chat session or extension id reaches `invoke`), so the "caller" is
 * one owner object per extension session: every chat and every extension invoking the tool share
 * it, and it starts afresh when the extension is reactivated.
 */
export class TmuxContextTool implements vscode.LanguageModelTool<TmuxContextInput> {
  static readonly toolName = 'dsh_tmux_context';
  private readonly notes = new TmuxContextNotes();
  /** The single caller identity of this extension session (see the class comment). */
  private readonly sessionOwner = {};

  constructor(
    private readonly detect: () => Promise<TmuxDetection>,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  prepareInvocation(): vscode.PreparedToolInvocation {
    // Read-only: an invocation message, never a confirmation.
    return { invocationMessage: 'Checking whether VS Code runs inside a tmux pane' };
  }

  async invoke(
    _options: vscode.LanguageModelToolInvocationOptions<TmuxContextInput>,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelToolResult> {
    const detection = await this.detect();
    if (token.isCancellationRequested) {
      // Not delivered, so not remembered as reported.
      throw new vscode.CancellationError();
    }
    const note = this.notes.report(this.sessionOwner, detection);
    this.log.debug(
      `tmux: ${TmuxContextTool.toolName} -> ${note.inPane ? `in pane ${note.paneId}` : 'not in a pane'}` +
        `${note.unchanged ? ' (unchanged)' : ''}`,
    );
    return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(JSON.stringify(note))]);
  }
}
