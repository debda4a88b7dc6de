/**
 * "DSH: Let Git Open a Repository an Agent Made…" (`dsh.sandbox.allowRepository`): the git folders
 * that git run in this window refuses because sandboxed sessions could have made or changed them
 * (docs/sandbox-git.md); the person picks one, is told to read what it would run, and git (VS Code's
 * git extension, sessions outside the sandbox) opens it again, without a window reload. Only while
 * no sandboxed session is open.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { COMMAND } from '../../common/ids';
import { visibleText } from '../../terminal/input/input';
import { commondirTarget } from '../../terminal/sandbox/gitControl';
import type { SandboxRuntime } from '../../terminal/sandbox/runtime';

/** The answer of the confirmation that lets git open the repository. */
const LET_GIT_OPEN = 'Let Git Open It';

/**
 * Registers the command. Its optional argument names the git folder (absolute, one of those
 * refused) instead of the pick; the confirmation is asked either way. It resolves with the git
 * folder let in, or undefined (none refused, nothing picked, not confirmed, or sandboxed sessions
 * open).
 */
export function registerSandboxRepositoriesCommand(runtime: SandboxRuntime): vscode.Disposable {
  return vscode.commands.registerCommand(COMMAND.allowSandboxRepository, async (named?: unknown): Promise<string | undefined> => {
    if (runtime.refusesAllUnprotected) {
      void vscode.window.showWarningMessage(
        'DSH Bridge: the search for repositories the agent sandbox made could not finish (too many folders, one it cannot read, or a name that is not UTF-8; see the DSH Bridge log). Git refuses every repository in the folders sandboxed sessions could write that was not protected, until the window reloads.',
      );
      return undefined;
    }
    const refused = runtime.repositoriesRefused();
    if (refused.length === 0) {
      void vscode.window.showInformationMessage('DSH Bridge: git refuses no repository made in the agent sandbox in this window.');
      return undefined;
    }
    let picked: { gitDir: string } | undefined;
    if (named !== undefined) {
      if (typeof named !== 'string' || !refused.includes(named)) {
        void vscode.window.showErrorMessage(
          `DSH Bridge: ${visibleText(JSON.stringify(named) ?? typeof named)} is not a git folder git refuses here; those refused: ${refused.map((d) => visibleText(d)).join(', ')}.`,
        );
        return undefined;
      }
      picked = { gitDir: named };
    } else
      picked = await vscode.window.showQuickPick(
        refused.map((gitDir) => ({ label: visibleText(shown(gitDir)), description: visibleText(gitDir), gitDir })),
        {
          title: 'Repositories git refuses: made or changed while a sandboxed agent session could write them',
          placeHolder: 'Pick one you have read',
        },
      );
    if (!picked) return undefined;
    const common = (await commondirTarget(picked.gitDir)) ?? picked.gitDir;
    // A dialog VS Code cannot show (it refuses modal dialogs while extension tests run) counts as no.
    const answer = await vscode.window
      .showWarningMessage(
        `Let git open ${visibleText(shown(picked.gitDir))}?`,
        {
          modal: true,
          detail:
            `An agent in the sandbox could have written it. Git outside the sandbox (VS Code's git, sessions outside it) runs what it names: ` +
            `read ${visibleText(path.join(common, 'config'))} and ${visibleText(path.join(picked.gitDir, 'config.worktree'))} (core.fsmonitor, filters, diff drivers, core.hooksPath) and the hooks in ` +
            `${visibleText(path.join(common, 'hooks'))} first` +
            (common === picked.gitDir
              ? '.'
              : ` (its commondir file names ${visibleText(common)}: git reads that folder's configuration and hooks).`),
        },
        LET_GIT_OPEN,
      )
      .then(undefined, () => undefined);
    if (answer !== LET_GIT_OPEN) return undefined;
    const outcome = await runtime.allowRepository(picked.gitDir);
    if (outcome === 'sessions open') {
      void vscode.window.showErrorMessage(
        'DSH Bridge: a sandboxed agent session is open and could still write it. Close the sandboxed sessions (DSH: Close Agent Terminal), then run this again.',
      );
      return undefined;
    }
    if (outcome === 'not refused') return undefined;
    void vscode.window.showInformationMessage(
      `DSH Bridge: git opens ${visibleText(shown(picked.gitDir))} again (VS Code's git at its next look, or Git: Open Repository).`,
    );
    return picked.gitDir;
  });
}

/** The repository a git folder belongs to, as the person knows it: `<folder>` for `<folder>/.git`. */
function shown(gitDir: string): string {
  return path.basename(gitDir) === '.git' ? path.dirname(gitDir) : gitDir;
}
