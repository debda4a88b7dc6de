// Driving the palette commands that show a quick pick, from a test: the command runs, and its
// quick pick's first (active) item is accepted the way Enter does.
import * as vscode from 'vscode';

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
