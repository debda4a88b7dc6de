/**
 * Nothing a sandboxed session writes makes git run code outside the sandbox: on the real pty-bash
 * backend in the real sandbox runtime (bubblewrap), a command inside plants a script and points a
 * repository's configuration at it by each route git reads; then git runs outside, as VS Code's git
 * extension runs it (`git status` in the repository, also after a file changed), and the script
 * must not have run. And git still serves ordinary work inside: status, add, commit, branch, diff.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitConfigValue } from '../../../src/terminal/sandbox/gitControl';
import { sandboxedSessionPerTest } from '../../helpers/sandboxedSession';
import { sandboxSettings } from '../../helpers/sandboxSettings';
import { git } from '../../helpers/git';
import { until } from '../../helpers/wait';

const VALUES = sandboxSettings({ dshMode: 'on' });
describe('a sandboxed session cannot make git outside run code (real bubblewrap, real node-pty, real bash, real git)', function () {
  this.timeout(120_000);
  const session = sandboxedSessionPerTest('dsh-sandbox-git-', () => VALUES);
  const { send } = session;
  let workspace: string;
  let outside: string;
  /** Made only by the planted script, in a folder the sandbox cannot write. */
  let ran: string;
  /** The planted script, written from inside the sandbox. */
  let evil: string;
  /** git run outside the sandbox, by the test, as the person or VS Code's git extension runs it. */
  const open = async () => {
    await session.open();
    // The script every vector points git at; writing it is allowed (the workspace is writable).
    const planted = await send(`printf '#!/bin/sh\\ntouch ${ran}\\nexit 1\\n' > ${evil} && chmod +x ${evil} && echo PLANTED`);
    assert.match(planted.output, /PLANTED/);
  };
  /** A repository made outside, before the session opens, with one commit of `tracked.txt`. */
  const repository = (dir: string) => {
    fs.mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q');
    fs.writeFileSync(path.join(dir, 'tracked.txt'), 'one\n');
    git(dir, 'add', 'tracked.txt');
    git(dir, 'commit', '-q', '-m', 'first');
  };
  /**
   * What VS Code's git extension does in `dir` outside the sandbox, on its own: `git status`, then
   * again after a file changed (git then refreshes and writes the index). Git's own errors are
   * not the question here; whether the planted script ran is.
   */
  const gitOutside = (dir: string) => {
    for (const change of [false, true]) {
      if (change && fs.existsSync(path.join(dir, 'tracked.txt')))
        fs.utimesSync(path.join(dir, 'tracked.txt'), new Date(), new Date(Date.now() + 5000));
      try {
        git(dir, 'status', '-z', '-uall');
      } catch {
        // git refused this repository: nothing ran
      }
    }
  };
  const assertNotRun = () => assert.ok(!fs.existsSync(ran), 'the script a sandboxed command planted ran outside the sandbox');
  /** git as VS Code's git runs it: with this process's environment, where the runtime puts its guard. */
  const hostGit = (dir: string, ...args: string[]) =>
    spawnSync('git', args, { cwd: dir, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });

  beforeEach(() => {
    ({ workspace, outside } = session.folders);
    ran = path.join(outside, 'ran-outside');
    evil = path.join(workspace, 'evil.sh');
  });

  it('the planted script does run when git outside is pointed at it (the check sees a run)', async () => {
    repository(workspace);
    await open();
    await session.close();
    git(workspace, 'config', 'core.fsmonitor', evil);
    gitOutside(workspace);
    assert.ok(fs.existsSync(ran), 'git outside runs core.fsmonitor: the other tests would not see a run');
  });

  it('an existing repository: .git/commondir cannot point git at a copied git folder with core.fsmonitor', async () => {
    repository(workspace);
    await open();
    await send(
      `cp -r .git copied; git config --file copied/config core.fsmonitor ${evil}; echo ${workspace}/copied > .git/commondir; cat .git/commondir`,
    );
    gitOutside(workspace);
    assertNotRun();
  });

  it('an existing repository: .git cannot be moved away and made anew', async () => {
    repository(workspace);
    await open();
    await send(`mv .git .git-away; git init -q . ; git config core.fsmonitor ${evil}; ls -a`);
    gitOutside(workspace);
    assertNotRun();
  });

  it('a workspace folder that is not a repository: git init there cannot set core.fsmonitor; nor a .git file naming a folder', async () => {
    fs.writeFileSync(path.join(workspace, 'tracked.txt'), 'one\n');
    await open();
    const init = await send(`git init -q . && git config core.fsmonitor ${evil} && git add tracked.txt && echo INIT-DONE`);
    assert.doesNotMatch(init.output, /INIT-DONE/, init.output);
    gitOutside(workspace);
    assertNotRun();
    const gitFile = await send(
      `git init -q --bare ${workspace}/gd && git --git-dir=${workspace}/gd config core.bare false && git --git-dir=${workspace}/gd config core.fsmonitor ${evil} && echo 'gitdir: gd' > .git && echo GITFILE-DONE`,
    );
    assert.doesNotMatch(gitFile.output, /GITFILE-DONE/, gitFile.output);
    gitOutside(workspace);
    assertNotRun();
  });

  it('an empty .git folder (no repository yet), at the root and one folder down: sandboxed commands cannot write into it, so a repository the person makes there after the session closed has none of their configuration', async () => {
    for (const dir of ['.', 'sub']) fs.mkdirSync(path.join(workspace, dir, '.git'), { recursive: true });
    await open();
    await send(
      `for d in . sub; do (cd $d && git init -q . ; git config core.fsmonitor ${evil} ; mkdir -p .git/hooks ; cp ${evil} .git/hooks/post-index-change); done; echo TRIED`,
    );
    await session.close();
    for (const dir of ['.', 'sub']) {
      const folder = path.join(workspace, dir);
      assert.deepEqual(fs.readdirSync(path.join(folder, '.git')), [], `${dir}/.git was written from inside the sandbox`);
      // The person makes the repository; the runtime's search after the last close may still be under way.
      await until(`git outside to make a repository in ${dir}`, () => hostGit(folder, 'init', '-q').status === 0, 20_000, 100);
      fs.writeFileSync(path.join(folder, 'tracked.txt'), 'one\n');
      assert.equal(hostGit(folder, 'add', 'tracked.txt').status, 0);
      assert.equal(hostGit(folder, 'config', 'core.fsmonitor').stdout, '', `${dir}: no core.fsmonitor from the session`);
      gitOutside(folder);
    }
    assertNotRun();
  });

  it('config.worktree of a repository that reads it (extensions.worktreeConfig) cannot set core.fsmonitor', async () => {
    repository(workspace);
    git(workspace, 'config', 'extensions.worktreeConfig', 'true');
    await open();
    await send(`git config --worktree core.fsmonitor ${evil}; echo "[core] fsmonitor = ${evil}" >> .git/config.worktree`);
    gitOutside(workspace);
    assertNotRun();
    // git inside reads the protected config.worktree as git outside does: empty, not refused.
    const work = await send(
      'echo two >> tracked.txt && git add tracked.txt && git -c user.name=a -c user.email=a@a commit -q -m second && git status --short && echo WORK-DONE',
    );
    assert.match(work.output, /WORK-DONE/, work.output);
    await session.close();
    assert.ok(!fs.existsSync(path.join(workspace, '.git', 'config.worktree')), 'no config.worktree left behind');
  });

  it('a linked worktree in the workspace: its commondir cannot point at a copied git folder', async () => {
    repository(path.join(workspace, 'main'));
    git(path.join(workspace, 'main'), 'worktree', 'add', '-q', path.join(workspace, 'linked'));
    await open();
    await send(
      `cp -r main/.git copied; git config --file copied/config core.fsmonitor ${evil}; echo ${workspace}/copied > main/.git/worktrees/linked/commondir`,
    );
    gitOutside(path.join(workspace, 'linked'));
    assertNotRun();
  });

  it('a submodule: the commondir of its git folder cannot point at a copied git folder', async () => {
    const upstream = path.join(outside, 'upstream');
    repository(upstream);
    repository(workspace);
    git(workspace, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', upstream, 'sub');
    await open();
    await send(
      `cp -r .git/modules/sub copied; git config --file copied/config core.fsmonitor ${evil}; echo ${workspace}/copied > .git/modules/sub/commondir`,
    );
    gitOutside(path.join(workspace, 'sub'));
    assertNotRun();
  });

  it('core.hooksPath in the worktree: its hooks cannot be written', async () => {
    repository(workspace);
    fs.mkdirSync(path.join(workspace, '.githooks'));
    git(workspace, 'config', 'core.hooksPath', '.githooks');
    await open();
    await send(`cp ${evil} .githooks/post-index-change; cp ${evil} .githooks/pre-commit; ls .githooks`);
    gitOutside(workspace);
    assertNotRun();
  });

  it('a repository made in a sub-folder (one and five folders down): git with the host environment refuses it while the session is open and after it closed; one made afterwards works', async () => {
    repository(workspace);
    await open();
    const made = await send(
      `for d in sub deep/a/b/c/d; do mkdir -p $d && (cd $d && git init -q && git config core.fsmonitor ${evil} && cp ${evil} .git/hooks/post-index-change && echo x > f && git add f && git status --short >/dev/null) || exit 1; done; echo MADE`,
    );
    assert.match(made.output, /MADE/, made.output);
    const refused = (dir: string) => {
      const status = hostGit(path.join(workspace, dir), 'status', '-z', '-uall');
      assert.notEqual(status.status, 0, `git outside worked in ${dir}`);
      assert.match(status.stderr, /repository-made-in-the-agent-sandbox/);
    };
    for (const dir of ['sub', 'deep/a/b/c/d']) refused(dir);
    assert.equal(hostGit(workspace, 'status', '--short').status, 0, "git outside works in the person's repository");
    assertNotRun();
    const sub = path.join(workspace, 'sub', '.git');
    assert.equal(await session.runtime.allowRepository(sub), 'sessions open', 'not while a sandboxed session is open');
    await session.close();
    for (const dir of ['sub', 'deep/a/b/c/d']) refused(dir);
    // Once the search after the last close is done, a repository made now is the person's.
    fs.mkdirSync(path.join(workspace, 'mine'));
    await until(
      'git outside to take a repository made after the session closed',
      () => hostGit(path.join(workspace, 'mine'), 'init', '-q').status === 0,
      20_000,
      100,
    );
    for (const dir of ['sub', 'deep/a/b/c/d']) refused(dir);
    assertNotRun();
    // The person, having read one, lets git open it; the other stays refused.
    // (The runtime is shared by this file's tests: only this workspace's.)
    const refusedHere = () => session.runtime.repositoriesRefused().filter((d) => d.startsWith(workspace + path.sep));
    assert.deepEqual(refusedHere(), [path.join(workspace, 'deep/a/b/c/d/.git'), sub]);
    assert.equal(await session.runtime.allowRepository(sub), 'allowed');
    assert.equal(hostGit(path.join(workspace, 'sub'), 'rev-parse', '--git-dir').status, 0, 'git outside opens the repository let in');
    refused('deep/a/b/c/d');
    assert.deepEqual(refusedHere(), [path.join(workspace, 'deep/a/b/c/d/.git')]);
    assert.equal(await session.runtime.allowRepository(sub), 'not refused');
  });

  /** Waits until the search after the last close is done: git outside takes a repository made now. */
  const searchDone = async () => {
    const probe = path.join(workspace, `probe-${Date.now()}`);
    fs.mkdirSync(probe);
    await until(
      'git outside to take a repository made after the session closed',
      () => hostGit(probe, 'init', '-q').status === 0,
      20_000,
      100,
    );
    fs.rmSync(probe, { recursive: true, force: true });
  };
  /** git status outside in `dir` (relative to the workspace), as VS Code's git runs it, with a file changed so that git refreshes the index. */
  const statusOutside = (dir: string) => {
    fs.writeFileSync(path.join(workspace, dir, 'changed.txt'), `${Date.now()}\n`);
    hostGit(path.join(workspace, dir), 'add', '-A');
    hostGit(path.join(workspace, dir), 'status', '-z', '-uall');
  };
  /**
   * A session makes `dir` (relative) a new worktree of a protected repository (a `.git` file naming
   * `gitDir`) with hooks of its own in `dir/.githooks`: git outside never runs them, while the
   * session is open and after it closed.
   */
  const hooksOfANewWorktreeNeverRun = async (dir: string, gitDir: string) => {
    await open();
    await send(
      `mkdir -p ${dir}/.githooks && cp ${evil} ${dir}/.githooks/post-index-change && printf 'gitdir: ${gitDir}\\n' > ${dir}/.git && cp tracked.txt ${dir}/ && echo MADE`,
    );
    statusOutside(dir);
    assertNotRun();
    await session.close();
    await searchDone();
    statusOutside(dir);
    assertNotRun();
  };
  /** A bare repository at `dir` (relative) pointed at the planted script, as a sandboxed command makes it. */
  const bare = (dir: string) =>
    `git init -q --bare ${dir} && git --git-dir=${dir} config core.bare false && git --git-dir=${dir} config core.fsmonitor ${evil}`;

  it('a worktree folder made half in one session and finished in the next is not taken for a protected one', async () => {
    repository(workspace);
    await open();
    await send(
      `mkdir -p .git/worktrees/w/objects .git/worktrees/w/refs && printf '.\\n' > .git/worktrees/w/commondir && printf '[core]\\n\\tbare = false\\n\\tfsmonitor = ${evil}\\n' > .git/worktrees/w/config; ls .git/worktrees/w`,
    );
    await session.close();
    await searchDone();
    await session.open();
    await send(
      `echo 'ref: refs/heads/master' > .git/worktrees/w/HEAD; mkdir -p sub && printf 'gitdir: ../.git/worktrees/w\\n' > sub/.git; ls sub`,
    );
    statusOutside('sub');
    assertNotRun();
    await session.close();
    await searchDone();
    statusOutside('sub');
    assertNotRun();
  });

  it("a git folder inside the person's logs or refs, reached through a .git symbolic link or a .git file read as git reads it, is refused after the close", async () => {
    repository(workspace);
    await open();
    await send(
      `${bare('.git/logs/evil')} && mkdir -p sub && ln -s ../.git/logs/evil sub/.git && ${bare('.git/refs/evil2')} && mkdir -p "sub2/x
" && printf 'gitdir: x\\n/../../.git/refs/evil2\\n' > sub2/.git && echo MADE`,
    );
    await session.close();
    await searchDone();
    for (const dir of ['sub', 'sub2']) statusOutside(dir);
    assertNotRun();
    assert.equal(hostGit(workspace, 'status', '--short').status, 0, "git outside works in the person's repository");
  });

  it("a relative core.hooksPath is read from the repository's own worktree, not from a new worktree a session made with hooks of its own", async () => {
    repository(workspace);
    fs.mkdirSync(path.join(workspace, '.githooks'));
    git(workspace, 'config', 'core.hooksPath', '.githooks');
    await hooksOfANewWorktreeNeverRun('sub', '../.git');
  });

  it('core.hooksPath set where git reads it beyond the repository config (config.worktree, an included file): its hooks folder is protected too', async () => {
    repository(workspace);
    git(workspace, 'config', 'extensions.worktreeConfig', 'true');
    git(workspace, 'config', '--worktree', 'core.hooksPath', '.githooks');
    const included = path.join(outside, 'hooks.gitconfig');
    fs.writeFileSync(included, '[core]\n\thooksPath = .husky/_\n');
    repository(path.join(workspace, 'other'));
    git(path.join(workspace, 'other'), 'config', 'include.path', included);
    for (const dir of ['.githooks', 'other/.husky/_']) fs.mkdirSync(path.join(workspace, dir), { recursive: true });
    await open();
    await send(`cp ${evil} .githooks/post-index-change; cp ${evil} other/.husky/_/post-index-change; echo TRIED`);
    for (const dir of ['.', 'other']) statusOutside(dir);
    assertNotRun();
  });

  it("a commondir naming a folder of the workspace: that folder's config and hooks are protected; one a session points at is refused with it, and named", async () => {
    repository(workspace);
    fs.mkdirSync(path.join(workspace, 'shared'));
    for (const name of ['objects', 'refs', 'config', 'hooks'])
      fs.renameSync(path.join(workspace, '.git', name), path.join(workspace, 'shared', name));
    fs.writeFileSync(path.join(workspace, '.git', 'commondir'), `${path.join(workspace, 'shared')}\n`);
    assert.equal(hostGit(workspace, 'status', '--short').status, 0, 'the layout is a working repository');
    await open();
    await send(`git config --file shared/config core.fsmonitor ${evil}; cp ${evil} shared/hooks/post-index-change; echo TRIED`);
    statusOutside('.');
    assertNotRun();
    // A session's decoy: a clean-looking git folder whose commondir names a folder it filled.
    await send(
      `git init -q sub && mkdir decoy && mv sub/.git/objects sub/.git/refs decoy/ && mkdir decoy/hooks && printf '[core]\\n\\tbare = false\\n\\tfsmonitor = ${evil}\\n' > decoy/config && echo ../../decoy > sub/.git/commondir && echo MADE`,
    );
    await session.close();
    await searchDone();
    statusOutside('sub');
    assertNotRun();
    assert.ok(session.runtime.repositoriesRefused().includes(path.join(workspace, 'decoy')), 'the folder the commondir names is listed');
  });

  it('a linked worktree whose gitdir file is relative (git 2.48 worktree.useRelativePaths) keeps its relative core.hooksPath from a new worktree a session makes', async () => {
    repository(workspace);
    git(workspace, 'config', 'core.hooksPath', '.githooks');
    fs.mkdirSync(path.join(workspace, '.githooks'));
    git(workspace, 'worktree', 'add', '-q', path.join(workspace, 'wt'));
    // As git 2.48 writes them with worktree.useRelativePaths.
    fs.writeFileSync(path.join(workspace, '.git', 'worktrees', 'wt', 'gitdir'), '../../../wt/.git\n');
    fs.writeFileSync(path.join(workspace, 'wt', '.git'), 'gitdir: ../.git/worktrees/wt\n');
    await hooksOfANewWorktreeNeverRun('x', '../.git/worktrees/wt');
  });

  it("a HEAD a session writes at the workspace folder refuses that folder only: the person's repositories, old and new, still work", async () => {
    repository(workspace);
    await open();
    await send(`echo 'ref: refs/heads/main' > HEAD && mkdir -p objects refs && echo MADE`);
    await session.close();
    await searchDone();
    assert.equal(hostGit(workspace, 'status', '--short').status, 0, "git outside works in the person's repository");
    fs.mkdirSync(path.join(workspace, 'mine'));
    assert.equal(hostGit(path.join(workspace, 'mine'), 'init', '-q').status, 0, 'a repository the person makes afterwards works');
    assert.ok(session.runtime.repositoriesRefused().includes(workspace), 'the workspace folder is listed, itself only');
  });

  it('ordinary work inside still works in an existing repository: status, add, commit, branch, diff', async () => {
    repository(workspace);
    await open();
    const work = await send(
      'echo two >> tracked.txt && git status --short && git diff --stat && git add tracked.txt && git -c user.name=a -c user.email=a@a commit -q -m second && git branch feature && git checkout -q feature && git log --oneline | wc -l && echo WORK-DONE',
    );
    assert.match(work.output, /WORK-DONE/, work.output);
    assert.match(work.output, /^ ?M tracked\.txt$/m);
    assert.equal(git(workspace, 'log', '--oneline').trim().split('\n').length, 2);
    assert.equal(git(workspace, 'branch', '--show-current').trim(), 'feature');
    await session.close();
    // Nothing of the protection is left in the repository once the session closed.
    for (const name of ['commondir', 'config.worktree'])
      assert.ok(!fs.existsSync(path.join(workspace, '.git', name)), `no ${name} left behind`);
    assert.equal(git(workspace, 'status', '--short').trim(), '?? evil.sh');
  });
});

describe('core.hooksPath as git reads it from a config file', () => {
  it('case-insensitive names, quotes, comments, the last value; a subsection or another section is not core', () => {
    assert.equal(gitConfigValue('[core]\n\thooksPath = .githooks\n', 'core', 'hookspath'), '.githooks');
    assert.equal(gitConfigValue('[CORE]\n  HooksPath=".git hooks" # note\n[core]\nhookspath = "last"\n', 'core', 'hookspath'), 'last');
    assert.equal(gitConfigValue('[core] hooksPath = inline ; comment\n', 'core', 'hookspath'), 'inline');
    assert.equal(gitConfigValue('[core "x"]\nhooksPath = sub\n[remote]\nhooksPath = other\n', 'core', 'hookspath'), undefined);
    assert.equal(gitConfigValue('[core]\nhooksPath = "a\\"b"\n', 'core', 'hookspath'), 'a"b');
  });
});
