/**
 * The sandboxed pass only (the workspace settings turn the agent sandbox on): with VS Code's own
 * git extension running in this window, a sandboxed session plants a script and points git at it
 * by every route it has in a workspace folder that is not a repository and in one that is; then
 * the person works as usual (opens and saves a file, opens the Source Control view, git refreshes)
 * for 60 s, and the script never runs. The check is shown to see a run: once the person (outside)
 * points the repository at a script, VS Code's git runs it. Agents still use git for ordinary work.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { invokeTool, waitForTools } from '../helpers/host/lm';
import { git as gitIn } from '../helpers/git';
import { until } from '../helpers/wait';

interface GitApi {
  repositories: { rootUri: vscode.Uri }[];
  /** The open repository holding `uri`, or null. */
  getRepository(uri: vscode.Uri): { rootUri: vscode.Uri } | null;
  /** The repository holding `root` once opened (which may be one above it), or null. */
  openRepository(root: vscode.Uri): Promise<{ rootUri: vscode.Uri } | null>;
}

/** How long the person works while the script must not run, in ms (the acceptance's 60 s). */
const WATCH_MS = 60_000;

describe("VS Code's git never runs what a sandboxed session planted", function () {
  this.timeout(300_000);
  const root = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  let outside: string;
  let ran: string;
  let evil: string;
  let git: GitApi;
  /** git outside the sandbox, as the person runs it. */
  const gitOutside = (...args: string[]) => gitIn(root(), ...args);
  /** A command in the tools' sandboxed session (dsh_run). */
  const run = async (command: string) => (await invokeTool<{ sessionId: string; exitCode?: number }>('dsh_run', { command })).text ?? '';
  const closeSessions = async () => {
    const listed = await invokeTool<{ sessions: { sessionId: string }[] }>('dsh_terminal_list', {});
    for (const s of listed.json.sessions) await invokeTool('dsh_terminal_close', { sessionId: s.sessionId });
  };
  /**
   * Git: Refresh on the repository holding `uri`, if one does. Without one, VS Code's git asks which
   * repository (a quick pick nobody answers here) once more than one is open.
   */
  const refresh = async (uri: vscode.Uri) => {
    if (git.getRepository(uri)) await vscode.commands.executeCommand('git.refresh', uri).then(undefined, () => undefined);
  };
  /** What a person does: open and save a file, open the Source Control view, and git refreshes. */
  const personWorks = async () => {
    const uri = vscode.Uri.file(path.join(root(), 'tracked.txt'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(uri, new vscode.Position(0, 0), 'x');
    await vscode.workspace.applyEdit(edit);
    await doc.save();
    await vscode.commands.executeCommand('workbench.view.scm');
    await refresh(uri);
  };
  /** The person works for {@link WATCH_MS}; the planted script must not run meanwhile. */
  const watch = async () => {
    const end = Date.now() + WATCH_MS;
    while (Date.now() < end) {
      await personWorks();
      assert.ok(!fs.existsSync(ran), "VS Code's git ran the script a sandboxed session planted");
      await new Promise((r) => setTimeout(r, 5000));
    }
    assert.ok(!fs.existsSync(ran), "VS Code's git ran the script a sandboxed session planted");
  };
  const repositoryOpen = () => git.repositories.some((r) => r.rootUri.fsPath === root());
  /**
   * Waits until git outside takes a repository the person makes now: after the last sandboxed
   * session closed, the guard that refuses every unprotected repository narrows to the ones the
   * sessions made once its search of the writable folders is done.
   */
  const guardSettled = async () => {
    const probe = path.join(root(), 'probe-repository');
    await until(
      'git outside to take a repository made now',
      () => {
        fs.rmSync(probe, { recursive: true, force: true });
        fs.mkdirSync(probe);
        // As VS Code's git runs git: with the extension host's environment as it is now, where the
        // guard's entry is (GIT_TEST_ENV is a copy made before the guard was installed).
        return spawnSync('git', ['init', '-q'], { cwd: probe, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } }).status === 0;
      },
      30_000,
      200,
    );
    fs.rmSync(probe, { recursive: true, force: true });
  };

  before(async () => {
    assert.equal(process.env.DSH_TEST_SUITE, 'sandboxed');
    await waitForTools(['dsh_run']);
    const extension = vscode.extensions.getExtension<{ getAPI(version: 1): GitApi }>('vscode.git');
    assert.ok(extension, "VS Code's git extension is not in this host");
    git = (await extension.activate()).getAPI(1);
    assert.ok(extension.isActive, "VS Code's git extension is active");
    outside = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-git-escape-')));
    ran = path.join(outside, 'ran');
    evil = path.join(root(), 'dsh-evil.sh');
    fs.writeFileSync(path.join(root(), 'tracked.txt'), 'one\n');
  });
  after(async () => {
    await closeSessions();
    fs.rmSync(path.join(root(), '.git'), { recursive: true, force: true });
    for (const f of ['tracked.txt', 'dsh-evil.sh', 'copied', 'gd', '.githooks', '.git-away', 'sub', 'deep', 'mine'])
      fs.rmSync(path.join(root(), f), { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a workspace folder that is not a repository: git init there and a .git file naming a folder are refused; nothing runs', async () => {
    // Not a repository, and no .git at all: an empty one (the sandbox's placeholder, left behind by
    // a window that closed with sandboxed sessions open) is protected whole, which the shell tests cover.
    await closeSessions();
    const dotGit = path.join(root(), '.git');
    if (fs.existsSync(dotGit) && fs.statSync(dotGit).isDirectory() && fs.readdirSync(dotGit).length === 0) fs.rmdirSync(dotGit);
    assert.ok(!fs.existsSync(dotGit), 'the workspace folder is not a repository');
    const planted = await run(`printf '#!/bin/sh\\ntouch ${ran}\\n' > ${evil} && chmod +x ${evil} && echo PLANTED`);
    assert.match(planted, /PLANTED/);
    const init = await run(`git init -q . && git config core.fsmonitor ${evil} && echo INIT-DONE`);
    assert.doesNotMatch(init, /INIT-DONE/, init);
    const gitFile = await run(
      `git init -q --bare gd && git --git-dir=gd config core.bare false && git --git-dir=gd config core.fsmonitor ${evil} && echo 'gitdir: gd' > .git && echo GITFILE-DONE`,
    );
    assert.doesNotMatch(gitFile, /GITFILE-DONE/, gitFile);
    await watch();
    assert.ok(!repositoryOpen(), "VS Code's git opened no repository at the workspace folder");
    await closeSessions();
  });

  it('an existing repository: commondir, config.worktree, core.hooksPath and a new .git are refused; nothing runs; ordinary git work does', async () => {
    // The person's repository, made before the session opens.
    await closeSessions();
    await guardSettled();
    gitOutside('init', '-q');
    gitOutside('config', 'extensions.worktreeConfig', 'true');
    gitOutside('config', 'core.hooksPath', '.githooks');
    fs.mkdirSync(path.join(root(), '.githooks'), { recursive: true });
    fs.writeFileSync(path.join(root(), '.gitignore'), 'ts/\nvault/\nsh/\n*.md\n');
    gitOutside('add', 'tracked.txt', '.gitignore');
    gitOutside('commit', '-q', '-m', 'first');
    await until("VS Code's git to open the repository", repositoryOpen, 60_000, 500);

    const work = await run(
      'echo two >> tracked.txt && git status --short && git diff --stat && git add tracked.txt && git -c user.name=a -c user.email=a@a commit -q -m second && git branch feature && echo WORK-DONE',
    );
    assert.match(work, /WORK-DONE/, work);
    assert.equal(gitOutside('log', '--oneline').trim().split('\n').length, 2);

    await run(`printf '#!/bin/sh\\ntouch ${ran}\\n' > ${evil} && chmod +x ${evil}`);
    await run(`cp -r .git copied; git config --file copied/config core.fsmonitor ${evil}; echo ${root()}/copied > .git/commondir`);
    await run(`git config --worktree core.fsmonitor ${evil}`);
    await run(`cp ${evil} .githooks/post-index-change; cp ${evil} .githooks/pre-commit`);
    await run(`mv .git .git-away && git init -q . && git config core.fsmonitor ${evil}`);
    await watch();
  });

  it("a repository made in a sub-folder: VS Code's git never runs it, while the session is open or after it closed; the agent's git works in it", async () => {
    await run(`printf '#!/bin/sh\\ntouch ${ran}\\n' > ${evil} && chmod +x ${evil}`);
    const made = await run(
      `mkdir -p sub deep/a/b/c/d && (cd sub && git init -q && git config core.fsmonitor ${evil} && cp ${evil} .git/hooks/post-index-change && echo x > f && git add f && git status --short && git -c user.name=a -c user.email=a@a commit -q -m one && echo SUB-DONE) && ` +
        `(cd deep/a/b/c/d && git init -q && git config core.fsmonitor ${evil} && echo y > g && git add g && echo DEEP-DONE)`,
    );
    assert.match(made, /SUB-DONE/, made);
    assert.match(made, /DEEP-DONE/, made);
    const opened = () =>
      git.repositories.some(
        (r) => r.rootUri.fsPath.startsWith(path.join(root(), 'sub')) || r.rootUri.fsPath.startsWith(path.join(root(), 'deep')),
      );
    const openInside = async () => {
      for (const f of ['sub/f', 'deep/a/b/c/d/g'])
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(root(), f))), {
          preview: false,
        });
      await refresh(vscode.Uri.file(path.join(root(), 'tracked.txt')));
    };
    await openInside();
    await watch();
    assert.ok(!opened(), "VS Code's git opened a repository a sandboxed session made");
    // Once the sessions closed, the repositories they made stay refused; one the person makes works.
    await closeSessions();
    const end = Date.now() + 15_000;
    while (Date.now() < end) {
      await openInside();
      await personWorks();
      await new Promise((r) => setTimeout(r, 3000));
    }
    assert.ok(!fs.existsSync(ran), "VS Code's git ran the script a sandboxed session planted");
    assert.ok(!opened(), "VS Code's git opened a repository a sandboxed session made");
    await guardSettled();
    fs.mkdirSync(path.join(root(), 'mine'));
    fs.writeFileSync(path.join(root(), 'mine', 'm.txt'), 'm\n');
    gitIn(path.join(root(), 'mine'), 'init', '-q');
    // Inside the workspace folder's repository VS Code's git does not look for it by itself: the person opens it (Git: Open Repository).
    const openedAt = async (folder: string) =>
      (await git.openRepository(vscode.Uri.file(path.join(root(), folder))))?.rootUri.fsPath === path.join(root(), folder);
    await until("VS Code's git to open the person's new repository", () => openedAt('mine'), 60_000, 1000);
    assert.ok(!(await openedAt('sub')), "VS Code's git opened a repository a sandboxed session made");
    assert.ok(!fs.existsSync(ran), "VS Code's git ran the script a sandboxed session planted");
    // Letting git open one asks the person first (a modal VS Code refuses to show in tests: no);
    // test/shell/terminal/sandbox-git.test.ts lets one in through the runtime.
    const subGit = path.join(root(), 'sub', '.git');
    assert.equal(await vscode.commands.executeCommand('dsh.sandbox.allowRepository', subGit), undefined);
    assert.ok(!(await openedAt('sub')), "VS Code's git opened a repository a sandboxed session made, unconfirmed");
    assert.ok(!fs.existsSync(ran), "VS Code's git ran the script a sandboxed session planted");
  });

  it("the check sees a run: once the person points the repository at a script outside the sandbox, VS Code's git runs it", async () => {
    await closeSessions();
    const sane = path.join(outside, 'sane');
    const script = path.join(outside, 'fsmonitor.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch ${sane}\nexit 1\n`, { mode: 0o755 });
    gitOutside('config', 'core.fsmonitor', script);
    try {
      await until(
        "VS Code's git to run core.fsmonitor",
        async () => {
          await personWorks();
          return fs.existsSync(sane);
        },
        60_000,
        1000,
      );
    } finally {
      gitOutside('config', '--unset', 'core.fsmonitor');
    }
  });
});
