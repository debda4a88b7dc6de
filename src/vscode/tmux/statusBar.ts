/**
 * tmux awareness in VS Code: how the extension host finds its pane, and the opt-in status bar
 * item. The detection itself lives in `src/tmux/` (plain Node); the `dsh_tmux_context` tool is
 * ../tools/tmux/contextTool.ts.
 */
import * as vscode from 'vscode';
import { SETTING } from '../../common/ids';
import { TmuxDetection, detectTmuxPane } from '../../tmux/detect';

/**
 * How the extension finds its tmux pane: detection of the extension host's own process
 * (`process.pid`), whether it runs in the pane its inherited `TMUX`/`TMUX_PANE` name. Unexpected
 * failures to run tmux go to `log` as warnings; every other outcome is a quiet "not in a pane".
 * One detection per call.
 */
export function tmuxDetector(log: vscode.LogOutputChannel): () => Promise<TmuxDetection> {
  return () => detectTmuxPane({ warn: (message) => log.warn(`tmux: ${message}`) });
}

/**
 * Shows the opt-in status bar item while `dsh.tmux.statusBar` is on (the `dsh_tmux_context` tool
 * is registered with the others, ../tools/registry.ts); removed with the returned Disposable.
 */
export function registerTmux(detect: () => Promise<TmuxDetection>, log: vscode.LogOutputChannel): vscode.Disposable {
  return new TmuxStatusBar(detect, log);
}

/**
 * The opt-in status bar item `tmux: session:window.pane`, shown only while `dsh.tmux.statusBar` is
 * true and the extension host really is in a pane. Re-detects when the setting changes and when
 * the VS Code window gains focus (the user may have renamed or moved the pane meanwhile).
 */
class TmuxStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('dsh.tmux', vscode.StatusBarAlignment.Left, 0);
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Bumped on every refresh and on dispose, so a slow detection never paints over a newer state. */
  private generation = 0;

  constructor(
    private readonly detect: () => Promise<TmuxDetection>,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.item.name = 'DSH Bridge: tmux pane';
    this.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration(SETTING.tmuxStatusBar)) {
          void this.refresh();
        }
      }),
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused && this.enabled()) {
          void this.refresh();
        }
      }),
    );
    void this.refresh();
  }

  private enabled(): boolean {
    return vscode.workspace.getConfiguration().get<unknown>(SETTING.tmuxStatusBar, false) === true;
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    if (!this.enabled()) {
      this.item.hide();
      return;
    }
    const detection = await this.detect();
    if (generation !== this.generation) {
      return;
    }
    if (!detection.inPane) {
      this.log.debug(`tmux: status bar hidden: ${detection.reason}`);
      this.item.hide();
      return;
    }
    this.item.text = `tmux: ${escapeIcons(`${detection.session}:${detection.windowIndex}.${detection.paneIndex}`)}`;
    this.item.tooltip =
      `VS Code runs in tmux session "${detection.session}", window ${detection.windowIndex} ` +
      `("${detection.windowName}"), pane ${detection.paneIndex} (${detection.paneId}) on ${detection.paneTty}, ` +
      `running ${detection.paneCommand}.`;
    this.item.show();
  }

  dispose(): void {
    this.generation++;
    this.item.dispose();
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
  }
}

/** Keeps a session or window name such as `$(bug)` from being rendered as a codicon. */
function escapeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}
