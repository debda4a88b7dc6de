// Driving the palette commands that show a quick pick, from a test: the command runs, and its
// quick pick's first (active) item is accepted the way Enter does.
import * as vscode from 'vscode';
import { until } from '../wait';

/**
 * Runs `command` and accepts the first item of the quick pick it shows, retrying until the
 * command settles (the quick pick appears asynchronously). Resolves with the command's result;
 * rejects after `timeoutMs`.
 */
export async function runPickingFirst<T>(command: string, timeoutMs = 10_000): Promise<T | undefined> {
  let settled = false;
  const running = Promise.resolve(vscode.commands.executeCommand<T>(command)).finally(() => (settled = true));
  const deadline = Date.now() + timeoutMs;
  while (!settled) {
    if (Date.now() > deadline) throw new Error(`${command} did not settle within ${timeoutMs} ms after accepting its quick pick`);
    await new Promise((r) => setTimeout(r, 200));
    if (!settled) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
  }
  return running;
}

/**
 * Text of the panel terminal `terminal` as a person copies it (wrapped rows joined, trailing blank
 * lines removed). `select` selects what is copied: the whole buffer (Select All) by default.
 * Extension tests get VS Code's in-memory clipboard.
 */
export async function panelText(
  terminal: vscode.Terminal,
  select: () => Thenable<unknown> = () => vscode.commands.executeCommand('workbench.action.terminal.selectAll'),
): Promise<string[]> {
  terminal.show();
  await until(`${terminal.name} to become the active terminal`, () => vscode.window.activeTerminal === terminal, 10_000, 100);
  await vscode.env.clipboard.writeText('');
  await select();
  await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
  await vscode.commands.executeCommand('workbench.action.terminal.clearSelection');
  const lines = (await vscode.env.clipboard.readText()).split(/\r?\n/).map((l) => l.trimEnd());
  while (lines.length && !lines[lines.length - 1]) lines.pop();
  return lines;
}

/**
 * Records the shell integration events VS Code fires for `terminal` (`'shell integration'` when
 * it starts reporting shell integration, `'command start'` for a command execution); undefined
 * where this VS Code has no such events for extensions (before 1.93).
 */
export function watchShellIntegration(terminal: vscode.Terminal): { seen: string[]; dispose(): void } | undefined {
  const api = vscode.window as unknown as {
    onDidChangeTerminalShellIntegration?: vscode.Event<{ terminal: vscode.Terminal }>;
    onDidStartTerminalShellExecution?: vscode.Event<{ terminal: vscode.Terminal }>;
  };
  if (!api.onDidChangeTerminalShellIntegration || !api.onDidStartTerminalShellExecution) return undefined;
  const seen: string[] = [];
  const subscriptions = [
    api.onDidChangeTerminalShellIntegration((e) => e.terminal === terminal && seen.push('shell integration')),
    api.onDidStartTerminalShellExecution((e) => e.terminal === terminal && seen.push('command start')),
  ];
  return {
    seen,
    dispose: () => {
      for (const d of subscriptions) d.dispose();
    },
  };
}
