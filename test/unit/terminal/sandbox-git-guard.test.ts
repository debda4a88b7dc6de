/**
 * The guard that keeps git run outside the sandbox out of repositories a sandboxed session made
 * (src/terminal/sandbox/gitGuard.ts), on real git: with the guard's entry in git's environment, a
 * repository whose git folder the guard names makes git fail before it runs the repository's
 * `core.fsmonitor` or hooks; the allowed ones (and everything outside the guarded folder) work.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GitGuard, everythingBut, gitDirsBelow, exactly } from '../../../src/terminal/sandbox/gitGuard';

describe('the git guard: git outside refuses the repositories it names', () => {
  let base: string;
  let ws: string;
  let ran: string;
  let env: NodeJS.ProcessEnv;
  let guard: GitGuard;
  const git = (cwd: string, ...args: string[]) =>
    spawnSync('git', args, {
      cwd,
      env: { ...env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      encoding: 'utf8',
    });
  /** The planted script: it touches `ran`. */
  const evilScript = () => {
    const script = path.join(base, 'evil.sh');
    fs.writeFileSync(script, `#!/bin/sh\ntouch ${ran}\nexit 1\n`, { mode: 0o755 });
    return script;
  };
  /** A repository at `dir` whose `core.fsmonitor` and `post-index-change` hook touch `ran`. */
  const planted = (dir: string) => {
    fs.mkdirSync(dir, { recursive: true });
    assert.equal(git(dir, 'init', '-q').status, 0);
    const script = evilScript();
    assert.equal(git(dir, 'config', 'core.fsmonitor', script).status, 0);
    fs.copyFileSync(script, path.join(dir, '.git', 'hooks', 'post-index-change'));
    fs.chmodSync(path.join(dir, '.git', 'hooks', 'post-index-change'), 0o755);
    fs.writeFileSync(path.join(dir, 'f'), 'x\n');
  };

  /** The search finds exactly `expected` in the workspace, and the guard refuses exactly those. */
  const refuseFound = async (expected: string[]) => {
    const found = await gitDirsBelow([ws]);
    assert.deepEqual(found, expected);
    guard.update(exactly(found ?? []), []);
  };

  beforeEach(() => {
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-guard-')));
    ws = path.join(base, 'work space [1]');
    ran = path.join(base, 'ran');
    env = { ...process.env };
    delete env.GIT_CONFIG_COUNT;
    guard = new GitGuard(env);
  });
  afterEach(() => {
    fs.rmSync(base, { recursive: true, force: true });
    if (guard.folder) fs.rmSync(guard.folder, { recursive: true, force: true });
  });

  it('the check sees a run: without the guard, git status runs the planted script', () => {
    planted(path.join(ws, 'sub'));
    git(path.join(ws, 'sub'), 'add', 'f');
    git(path.join(ws, 'sub'), 'status');
    assert.ok(fs.existsSync(ran));
  });

  it('everything but the allowed git folders: a new repository in a sub-folder fails; the allowed one and its work go on', () => {
    fs.mkdirSync(ws, { recursive: true });
    assert.equal(git(ws, 'init', '-q').status, 0);
    for (const sub of ['sub', '.gi', '.git2', 'a/b/c/d/e', 'ü']) planted(path.join(ws, sub));
    planted(path.join(base, 'outside'));
    guard.update(everythingBut(ws, [path.join(ws, '.git')]), [path.join(base, 'elsewhere')]);
    // Even git init fails there now.
    assert.notEqual(git(ws, 'init', '-q', 'another').status, 0);
    for (const sub of ['sub', '.gi', '.git2', 'a/b/c/d/e', 'ü']) {
      for (const args of [
        ['add', 'f'],
        ['status', '-z', '-uall'],
        ['rev-parse', '--show-toplevel'],
      ]) {
        const r = git(path.join(ws, sub), ...args);
        assert.notEqual(r.status, 0, `${sub}: git ${args.join(' ')} ran`);
        assert.match(r.stderr, /bad config line 1 in file .*repository-made-in-the-agent-sandbox/);
      }
    }
    assert.ok(!fs.existsSync(ran), 'a planted script ran');
    // A linked worktree made in the allowed repository's git folder is refused too.
    fs.writeFileSync(path.join(ws, 'top.txt'), 'x\n');
    assert.equal(git(ws, 'add', 'top.txt').status, 0, git(ws, 'add', 'top.txt').stderr);
    assert.equal(git(ws, 'commit', '-q', '-m', 'one').status, 0);
    assert.equal(git(ws, 'branch', 'feature').status, 0);
    assert.match(git(ws, 'status', '--short').stdout, /\?\? /);
    assert.notEqual(
      git(ws, 'worktree', 'add', '-q', path.join(base, 'wt'), 'feature').status === 0 && git(path.join(base, 'wt'), 'status').status,
      0,
    );
    // Outside the guarded folder nothing changes (the check sees that run).
    assert.equal(git(path.join(base, 'outside'), 'status').status, 0);
    assert.ok(fs.existsSync(ran));
  });

  it('exactly these: the named git folders fail, a repository made after them works', async () => {
    planted(path.join(ws, 'made'));
    await refuseFound([path.join(ws, 'made', '.git')]);
    assert.notEqual(git(path.join(ws, 'made'), 'status').status, 0);
    fs.mkdirSync(path.join(ws, 'later'));
    assert.equal(git(path.join(ws, 'later'), 'init', '-q').status, 0);
    assert.equal(git(path.join(ws, 'later'), 'status').status, 0);
    assert.ok(!fs.existsSync(ran));
  });

  it('a git folder whose path holds a newline (which git configuration cannot spell) is refused too', async () => {
    planted(path.join(ws, 'new\nline'));
    await refuseFound([path.join(ws, 'new\nline', '.git')]);
    assert.notEqual(git(path.join(ws, 'new\nline'), 'status').status, 0);
    assert.ok(!fs.existsSync(ran));
  });

  it('a folder whose name is not UTF-8 cannot be named to git: the search says it could not finish', async () => {
    fs.mkdirSync(ws, { recursive: true });
    fs.mkdirSync(Buffer.concat([Buffer.from(`${ws}/`), Buffer.from([0xff])]));
    assert.equal(await gitDirsBelow([ws]), undefined);
    fs.mkdirSync(path.join(ws, 'named \uFFFD in UTF-8'));
    fs.rmSync(Buffer.concat([Buffer.from(`${ws}/`), Buffer.from([0xff])]), { recursive: true });
    assert.deepEqual(await gitDirsBelow([ws]), [], 'a name holding U+FFFD itself is UTF-8');
  });

  it('a commondir or .git that is a FIFO does not hold the search up', async function () {
    this.timeout(5000);
    fs.mkdirSync(path.join(ws, 'sub', 'gd'), { recursive: true });
    assert.equal(spawnSync('mkfifo', [path.join(ws, 'sub', 'gd', 'commondir'), path.join(ws, 'sub', '.git')]).status, 0);
    assert.deepEqual(await gitDirsBelow([ws]), [path.join(ws, 'sub', 'gd')]);
  });

  it('a .git folder that is no repository yet (no HEAD) counts: a git init there afterwards fails, as it would keep the configuration inside', async () => {
    const script = evilScript();
    const latent = (dir: string) => {
      fs.mkdirSync(path.join(dir, '.git'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.git', 'config'), `[core]\n\tfsmonitor = ${script}\n`);
      fs.writeFileSync(path.join(dir, 'f'), 'f\n');
    };
    latent(path.join(ws, 'latent'));
    await refuseFound([path.join(ws, 'latent', '.git')]);
    assert.notEqual(git(path.join(ws, 'latent'), 'init', '-q').status, 0);
    git(path.join(ws, 'latent'), 'status');
    assert.ok(!fs.existsSync(ran));
    // The check sees a run: elsewhere git init keeps the configuration inside, and git status runs it.
    latent(path.join(base, 'unguarded'));
    assert.equal(git(path.join(base, 'unguarded'), 'init', '-q').status, 0);
    git(path.join(base, 'unguarded'), 'status');
    assert.ok(fs.existsSync(ran));
  });

  it('the search after the last session closed leaves out git folders made after it (by their creation time)', async () => {
    planted(path.join(ws, 'made'));
    const closedAt = Date.now() + 1;
    await new Promise((r) => setTimeout(r, 20));
    fs.mkdirSync(path.join(ws, 'later'));
    assert.equal(git(path.join(ws, 'later'), 'init', '-q').status, 0);
    assert.deepEqual((await gitDirsBelow([ws]))?.sort(), [path.join(ws, 'later', '.git'), path.join(ws, 'made', '.git')]);
    assert.deepEqual(await gitDirsBelow([ws], closedAt), [path.join(ws, 'made', '.git')]);
  });

  it("the guard's entry comes after the ones the environment has, and a shell inside can remove it", () => {
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'user.name';
    env.GIT_CONFIG_VALUE_0 = 'kept';
    guard.update([], []);
    assert.equal(env.GIT_CONFIG_COUNT, '2');
    assert.equal(env.GIT_CONFIG_KEY_1, 'include.path');
    const r = spawnSync('sh', ['-c', `${guard.unsetCommand()}echo "$GIT_CONFIG_COUNT:$GIT_CONFIG_KEY_0:$GIT_CONFIG_KEY_1"`], {
      env,
      encoding: 'utf8',
    });
    assert.equal(r.stdout.trim(), '1:user.name:');
    assert.throws(() => guard.update([], [os.tmpdir()]), /sandboxed commands can write/);
  });

  it('where sandboxed commands can write the temporary folder, the guard keeps its files in the next folder; with none left it says so', () => {
    const tmp = path.join(base, 'tmp');
    const elsewhere = path.join(base, 'elsewhere');
    const placed = new GitGuard(env, [tmp, undefined, elsewhere]);
    placed.update([], [tmp]);
    const folder = placed.folder ?? '';
    assert.ok(folder.startsWith(elsewhere + path.sep), `the guard's folder is ${folder}`);
    assert.ok(fs.existsSync(path.join(folder, 'guard.gitconfig')));
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.throws(
      () => new GitGuard({}, [tmp]).update([], [base]),
      /every folder the guard could use \(.*tmp\) lies in one sandboxed commands can write/,
    );
  });
});
