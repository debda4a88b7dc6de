/**
 * The files of a repository that decide what git runs, which a sandboxed session must not write:
 * git run outside the sandbox on the same repository (the person's, or VS Code's git extension's
 * `git status` on its own) reads them and runs what they name, with no sandbox. Plain Node.
 *
 * What git reads from a repository (git's `setup.c`, `repository-layout` and `githooks` manuals):
 * - `<gitdir>/config`, and `<commondir>/config` where `<gitdir>/commondir` names the common git
 *   folder (a linked worktree's, or any repository's: git honours the file in every git folder), and
 *   `config.worktree` when `extensions.worktreeConfig` is set: `core.fsmonitor`, filter and diff
 *   drivers, `core.sshCommand`, … run programs;
 * - `<commondir>/hooks`, or `core.hooksPath` (relative to the worktree's top folder): the hooks
 *   (`post-index-change` runs when `git status` refreshes the index);
 * - a `.git` file (`gitdir: <folder>`) names the git folder; a linked worktree's
 *   `<gitdir>/gitdir` names its `.git` file back.
 * So for every git folder: `hooks`, `config`, `config.worktree` and `commondir` are kept unwritable,
 * the hooks folder `core.hooksPath` names when it is in the workspace, and a linked worktree's
 * `commondir`, `gitdir`, `config.worktree` and `.git` file. An absent one of these two cannot be
 * kept absent by the runtime's read-only placeholder, which is `/dev/null` inside the sandbox (git
 * inside then fails to read it: "Permission denied") and an empty file outside (an empty
 * `commondir` makes git fail: "failed to read"). So a stand-in is written before the session
 * starts and removed when no sandboxed session is open: a `commondir` saying `.` (the git folder
 * itself, which git resolves to the same folder) and an empty `config.worktree`.
 * A `.git` folder that is not yet a repository (no `HEAD`: an empty one, or one a tool left) is
 * kept unwritable whole: with only its `HEAD` protected, `git init` inside writes everything else
 * (`config`, `hooks`), and a `git init` the person runs there later keeps them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { run } from '../../proc/run';

/** Most git folders searched in one repository (submodules of submodules, linked worktrees). */
const MAX_GIT_DIRS = 20_000;

/**
 * A protected repository whose `core.hooksPath` is relative: git reads it relative to whichever
 * worktree it runs in, and a sandboxed command can make a new worktree of the repository anywhere
 * it writes (a `.git` file naming its git folder) with hooks of its own there. The git guard
 * (gitGuard.ts) sets the hooks folder for that git folder to the absolute one (`hooks`) at git's
 * command scope, which outranks the repository's own setting.
 */
export interface HooksFolder {
  /** The git folder (absolute), as `includeIf "gitdir:"` matches it. */
  gitDir: string;
  /** The hooks folder the repository's setting names from its own worktree (absolute). */
  hooks: string;
}

/** What {@link gitControlPaths} found for one repository. */
export interface GitControl {
  /** Absolute paths to keep unwritable, possibly absent (the runtime keeps them from being created). */
  readonly paths: string[];
  /** Stand-ins to write before the session starts ({@link writeStandIns}): absent now, protected once written. */
  readonly standIns: string[];
  /** The repository's git folders whose control files `paths` protect (its own, submodules', linked worktrees'), absolute. */
  readonly gitDirs: string[];
  /** Those whose `core.hooksPath` is relative, with the hooks folder it names from their own worktree (gitGuard.ts). */
  readonly hooks: HooksFolder[];
}

/**
 * The git control files of the repository whose top folder is `dir` (nothing when `dir` has no
 * `.git`): see the module comment. A `.git` file is protected itself, and the git folder it names
 * when that is a folder below `dir`'s repository (a submodule's or a worktree's). A `.git` folder
 * without `HEAD` (git does not take it for a repository yet) is protected whole, and counts as a
 * protected git folder.
 */
export async function gitControlPaths(dir: string, gitEnv: NodeJS.ProcessEnv = process.env): Promise<GitControl> {
  if (await repositoryAt(dir)) return gitControlOf(dir, gitEnv);
  const dotGit = path.join(dir, '.git');
  if ((await lstat(dotGit))?.isDirectory()) return { paths: [dotGit], standIns: [], gitDirs: [dotGit], hooks: [] };
  return { paths: [], standIns: [], gitDirs: [], hooks: [] };
}

/** True when `dir/.git` is a file (a `.git` file naming the git folder) or a folder with `HEAD`. */
export async function repositoryAt(dir: string): Promise<boolean> {
  const stat = await lstat(path.join(dir, '.git'));
  return !!stat && (stat.isFile() || (stat.isDirectory() && !!(await lstat(path.join(dir, '.git', 'HEAD')))));
}

async function gitControlOf(dir: string, gitEnv: NodeJS.ProcessEnv): Promise<GitControl> {
  const dotGit = path.join(dir, '.git');
  const stat = await lstat(dotGit);
  if (!stat) return { paths: [], standIns: [], gitDirs: [], hooks: [] };
  const paths: string[] = [];
  const standIns: string[] = [];
  const gitDirs: { gitDir: string; top: string }[] = [];
  if (stat.isFile()) {
    paths.push(dotGit);
    const named = await gitFileTarget(dotGit);
    if (named && (await lstat(named))?.isDirectory()) gitDirs.push({ gitDir: named, top: dir });
  } else if (stat.isDirectory() && (await lstat(path.join(dotGit, 'HEAD')))) {
    gitDirs.push({ gitDir: dotGit, top: dir });
  } else {
    // Not a git folder (no HEAD: git walks past it), e.g. the empty one held at a folder with no repository.
    return { paths: [], standIns: [], gitDirs: [], hooks: [] };
  }
  const seen = new Set<string>();
  const worktreeDirs: string[] = [];
  const hooks: HooksFolder[] = [];
  for (let i = 0; i < gitDirs.length && i < MAX_GIT_DIRS; i++) {
    const { gitDir, top } = gitDirs[i]!;
    if (seen.has(gitDir)) continue;
    seen.add(gitDir);
    paths.push(
      path.join(gitDir, 'hooks'),
      path.join(gitDir, 'config'),
      path.join(gitDir, 'config.worktree'),
      path.join(gitDir, 'commondir'),
    );
    for (const name of ['commondir', 'config.worktree'])
      if (!(await lstat(path.join(gitDir, name)))) standIns.push(path.join(gitDir, name));
    // A `commondir` naming another folder: git reads that folder's `config` and `hooks` instead.
    const commonDir = await commondirTarget(gitDir);
    if (commonDir !== undefined && commonDir !== gitDir && (await lstat(commonDir))?.isDirectory())
      gitDirs.push({ gitDir: commonDir, top });
    const hooksPath = await configuredHooksPath(gitDir, top, gitEnv);
    if (hooksPath) paths.push(hooksPath.folder);
    if (hooksPath?.relative) hooks.push({ gitDir, hooks: hooksPath.folder });
    // Linked worktrees: their administrative folders, and the `.git` file each names back.
    for (const entry of await folderEntries(path.join(gitDir, 'worktrees'))) {
      if (!entry.isDirectory()) continue;
      const admin = path.join(gitDir, 'worktrees', entry.name);
      paths.push(path.join(admin, 'commondir'), path.join(admin, 'gitdir'), path.join(admin, 'config.worktree'));
      worktreeDirs.push(admin);
      if (!(await lstat(path.join(admin, 'config.worktree')))) standIns.push(path.join(admin, 'config.worktree'));
      // Absolute, or relative to the administrative folder (git 2.48's worktree.useRelativePaths).
      const named = (await readSmall(path.join(admin, 'gitdir')))?.trim();
      if (named) {
        const worktreeGitFile = path.resolve(admin, named);
        paths.push(worktreeGitFile);
        const worktreeHooks = await configuredHooksPath(admin, path.dirname(worktreeGitFile), gitEnv);
        if (worktreeHooks) paths.push(worktreeHooks.folder);
        if (worktreeHooks?.relative) hooks.push({ gitDir: admin, hooks: worktreeHooks.folder });
      }
    }
    // Submodules' git folders (modules/<name>, also nested in names with slashes).
    const pending = [path.join(gitDir, 'modules')];
    while (pending.length > 0 && gitDirs.length < MAX_GIT_DIRS) {
      const modules = pending.pop()!;
      for (const entry of await folderEntries(modules)) {
        if (!entry.isDirectory()) continue;
        const candidate = path.join(modules, entry.name);
        if (await lstat(path.join(candidate, 'HEAD'))) gitDirs.push({ gitDir: candidate, top: (await moduleWorktree(candidate)) ?? top });
        else pending.push(candidate);
      }
    }
  }
  return { paths: [...new Set(paths)], standIns: [...new Set(standIns)], gitDirs: [...seen, ...worktreeDirs], hooks };
}

/**
 * The hooks folder `core.hooksPath` names for the git folder `gitDir` whose worktree's top folder
 * is `top`, as git itself reads it (`git config --type=path --get core.hooksPath` with `gitEnv`:
 * every scope, `config.worktree`, includes): absolute, or relative to `top` (`relative`: git
 * resolves it against the worktree it runs in). Undefined when none is set or git cannot say.
 * Reading configuration runs no program the repository names.
 */
export async function configuredHooksPath(
  gitDir: string,
  top: string,
  gitEnv: NodeJS.ProcessEnv = process.env,
): Promise<{ folder: string; relative: boolean } | undefined> {
  const read = await run('git', ['--git-dir', gitDir, 'config', '--type=path', '--get', 'core.hooksPath'], HOOKS_PATH_TIMEOUT_MS, {
    cwd: top,
    env: gitEnv,
  });
  const value = read.kind === 'ok' ? read.stdout.replace(/\n$/, '') : undefined;
  if (!value) return undefined;
  return { folder: path.resolve(top, value), relative: !path.isAbsolute(value) };
}

/** Longest a `git config` read of `core.hooksPath` may take (ms). */
const HOOKS_PATH_TIMEOUT_MS = 5000;

/**
 * The last value of `section.key` (both lower case; no subsection) in git config `text`, as git
 * reads it: case-insensitive names, `#`/`;` comments, double quotes with `\\` escapes, a key with
 * no `=` counting as `true`. Undefined when unset. Includes (`include.path`) are not followed.
 */
export function gitConfigValue(text: string, section: string, key: string): string | undefined {
  let current = '';
  let value: string | undefined;
  for (const raw of text.split('\n')) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(\s+"(?:[^"\\]|\\.)*")?\s*\](.*)$/.exec(line);
    if (header) {
      // A section with a subsection (`[remote "origin"]`) is never the one asked for.
      current = header[2] ? '' : header[1]!.toLowerCase();
      line = header[3]!.trim();
      if (!line) continue;
    }
    if (current !== section) continue;
    const m = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m || m[1]!.toLowerCase() !== key) continue;
    value = m[2] === undefined ? 'true' : unquote(m[2]);
  }
  return value;
}

/** A git config value as git reads it: quotes removed, escapes applied, a comment outside quotes cut. */
function unquote(raw: string): string {
  let out = '';
  let quoted = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (c === '\\' && i + 1 < raw.length) {
      const n = raw[++i]!;
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else out += c;
  }
  return out.trim();
}

/**
 * The folder a `.git` file names, read as git reads it (setup.c `read_gitfile_gently`: `gitdir: `
 * at the start, then the rest of the file, trailing line ends removed), resolved against the
 * file's folder. Undefined when the file is not read so (git then refuses it too).
 */
export async function gitFileTarget(file: string): Promise<string | undefined> {
  const text = (await readSmall(file)) ?? '';
  const named = text.startsWith('gitdir: ') ? withoutLineEnds(text.slice('gitdir: '.length)) : '';
  return named === '' ? undefined : path.resolve(path.dirname(file), named);
}

/**
 * The folder `gitDir`'s `commondir` file names (setup.c: its text, trailing line ends removed,
 * relative to `gitDir`), whose `config` and `hooks` git reads for `gitDir`; undefined without one.
 */
export async function commondirTarget(gitDir: string): Promise<string | undefined> {
  const named = withoutLineEnds((await readSmall(path.join(gitDir, 'commondir'))) ?? '');
  return named === '' ? undefined : path.resolve(gitDir, named);
}

function withoutLineEnds(text: string): string {
  return text.replace(/[\r\n]+$/, '');
}

/** A submodule's worktree top folder: its git folder's `core.worktree`, resolved against the git folder. */
async function moduleWorktree(gitDir: string): Promise<string | undefined> {
  const text = await readSmall(path.join(gitDir, 'config'));
  const worktree = text === undefined ? undefined : gitConfigValue(text, 'core', 'worktree');
  return worktree ? path.resolve(gitDir, worktree) : undefined;
}

/** Most bytes read of a git file here (configs and pointer files are small). */
const READ_MAX_BYTES = 1024 * 1024;

/** The text of a regular file of at most {@link READ_MAX_BYTES}, else undefined (absent, a FIFO, too large). */
export async function readSmall(file: string): Promise<string | undefined> {
  const stat = await lstat(file);
  if (!stat?.isFile() || stat.size > READ_MAX_BYTES) return undefined;
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `p`'s lstat, or undefined when it cannot be read (absent). */
export async function lstat(p: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.lstat(p);
  } catch {
    return undefined;
  }
}

async function folderEntries(dir: string): Promise<fs.Dirent[]> {
  try {
    return await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** What a stand-in says: a `commondir` names the git folder itself; a `config.worktree` is empty. */
function standInText(file: string): string {
  return path.basename(file) === 'commondir' ? '.\n' : '';
}

/**
 * Writes each of `standIns` that is still absent (`wx`: never over a file or a link made since)
 * with what a stand-in says. @returns the files it wrote.
 */
export function writeStandIns(standIns: readonly string[]): string[] {
  const written: string[] = [];
  for (const file of standIns) {
    try {
      fs.writeFileSync(file, standInText(file), { flag: 'wx' });
      written.push(file);
    } catch {
      // Made meanwhile (by git, or by another session's wrap): protected as it is.
    }
  }
  return written;
}

/** Removes the stand-ins {@link writeStandIns} wrote, where they still say what it wrote. */
export function removeStandIns(written: Iterable<string>): void {
  for (const file of written) {
    try {
      if (fs.lstatSync(file).isFile() && fs.readFileSync(file, 'utf8') === standInText(file)) fs.unlinkSync(file);
    } catch {
      // Gone already.
    }
  }
}
