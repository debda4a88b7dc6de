/**
 * Keeping git that runs in the extension host (VS Code's git extension, which runs `git status` on
 * its own, and sessions outside the sandbox) out of repositories a sandboxed session made. Plain Node.
 *
 * Bubblewrap protects only paths named when a session starts, and a sandboxed command can make a
 * repository anywhere it writes (`mkdir sub && cd sub && git init && git config core.fsmonitor
 * ./x.sh`): its `config` and `hooks` are the session's own, and VS Code's git finds it by itself
 * (its file watcher, its scan of sub-folders, an editor opened on a file inside). The guard makes
 * git fail in such a repository before it runs anything: the extension host's environment gets one
 * more configuration entry of the command scope (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_<n>` =
 * `include.path`, `GIT_CONFIG_VALUE_<n>` = the guard file), which every git started from the host
 * inherits (VS Code's git extension spawns git with `process.env` of the host at each call). The
 * guard file holds `[includeIf "gitdir:<pattern>"]` sections naming a file git cannot parse: git
 * reads all configuration before it does anything, and dies at a bad line ("fatal: bad config line 1
 * in file …/repository-made-in-the-agent-sandbox"), so no `core.fsmonitor`, hook, filter, diff
 * driver or other program named by that repository runs (git's config.c: `include_by_gitdir`
 * matches the git folder's real path, then its absolute path, with `wildmatch(…, WM_PATHNAME)`).
 *
 * Which git folders it names:
 * - while a sandboxed session is open: every path in a folder sandboxed commands can write, except
 *   the git folders of the repositories whose control files the open sessions protect (gitControl.ts);
 * - once none is open: the git folders found there ({@link gitDirsBelow}) that were not protected
 *   and were made before the last close, each by itself. Repositories made later, by the person,
 *   work, also inside one of those.
 * Protected repositories whose `core.hooksPath` is relative also get their hooks folder set
 * absolute (gitControl.ts HooksFolder).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { run } from '../../proc/run';
import { commondirTarget, gitFileTarget, type HooksFolder } from './gitControl';

/** The file name of the unparseable file the guard includes; git's error names it. */
export const REFUSAL_FILE_NAME = 'repository-made-in-the-agent-sandbox';

/**
 * Glob patterns (git's wildmatch with WM_PATHNAME, as `includeIf "gitdir:"` takes them) that
 * together match `root` itself and every path below it, except exactly the paths in `allowed`
 * (absolute; those not below `root` are ignored). Paths are matched as UTF-8 bytes: each pattern is a
 * "byte string" (one character per byte, code points 0-255), to be written with `latin1`.
 */
export function everythingBut(root: string, allowed: readonly string[]): string[] {
  const rootBytes = bytes(trimSlash(root));
  const trie: ComponentTrie = { terminal: false, children: new Map() };
  for (const a of allowed) {
    const rel = path.relative(root, a);
    if (rel.startsWith('..') || path.isAbsolute(rel)) continue;
    let node = trie;
    for (const part of rel === '' ? [] : rel.split(path.sep)) {
      const key = bytes(part);
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { terminal: false, children: new Map() }));
      node = next;
    }
    node.terminal = true;
  }
  return complement(escapeGlob(rootBytes), trie);
}

/**
 * Patterns matching exactly each of `gitDirs` (git's wildmatch, byte strings as
 * {@link everythingBut}): a repository made later below one (the person's, inside a folder a session
 * turned into a git folder by writing a `HEAD` there) is not matched. A newline, which a git
 * configuration subsection cannot hold, is matched by `?` (any one character): the pattern then
 * also matches a few other paths, which are refused too.
 */
export function exactly(gitDirs: readonly string[]): string[] {
  return gitDirs.map((d) => escapeGlob(bytes(trimSlash(d))).replace(/\n/g, '?'));
}

interface ComponentTrie {
  terminal: boolean;
  children: Map<string, ComponentTrie>;
}

function complement(prefix: string, node: ComponentTrie): string[] {
  const out: string[] = [];
  if (!node.terminal) out.push(prefix);
  for (const other of namesOtherThan('', [...node.children.keys()], true)) out.push(`${prefix}/${other}`, `${prefix}/${other}/**`);
  for (const [name, child] of node.children) out.push(...complement(`${prefix}/${escapeGlob(name)}`, child));
  return out;
}

/** Single-component patterns matching every non-empty name that is not `prefix` + one of `rests` (byte strings). */
function namesOtherThan(prefix: string, rests: string[], atStart: boolean): string[] {
  const out: string[] = [];
  if (!atStart && !rests.includes('')) out.push(prefix);
  const firsts = [...new Set(rests.filter((r) => r !== '').map((r) => r[0]!))];
  out.push(firsts.length > 0 ? `${prefix}[!${firsts.map((c) => `\\${c}`).join('')}]*` : `${prefix}?*`);
  for (const c of firsts)
    out.push(
      ...namesOtherThan(
        prefix + escapeGlob(c),
        rests.filter((r) => r[0] === c).map((r) => r.slice(1)),
        false,
      ),
    );
  return out;
}

/** `s` with wildmatch's special characters escaped. */
function escapeGlob(s: string): string {
  return s.replace(/[\\*?[\]]/g, (c) => `\\${c}`);
}

/** `s` as a byte string: its UTF-8 bytes, one character each. */
function bytes(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1');
}

/** `p`'s real path, or `p` as given when it does not resolve (absent). */
export function realOrGiven(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * The text of a guard file (a byte string, written with `latin1`): one `includeIf "gitdir:…"`
 * section per pattern, each including `refusal`, then one per entry of `includes` (a pattern and
 * the file it includes).
 * @throws Error when a pattern holds a newline (a git config subsection cannot).
 */
export function guardText(
  patterns: readonly string[],
  refusal: string,
  includes: readonly { pattern: string; file: string }[] = [],
): string {
  const quote = (s: string) => s.replace(/[\\"]/g, (c) => `\\${c}`);
  const lines = ['# DSH Bridge: git run outside the agent sandbox refuses the repositories these name (see docs/sandbox-git.md).'];
  const section = (pattern: string, file: string) => {
    if (pattern.includes('\n')) throw new Error(`a path with a newline cannot be named to git: ${JSON.stringify(pattern)}`);
    lines.push(`[includeIf "gitdir:${quote(pattern)}"]`, `\tpath = ${quote(bytes(file))}`);
  };
  for (const p of patterns) section(p, refusal);
  for (const { pattern, file } of includes) section(pattern, file);
  return lines.join('\n') + '\n';
}

/**
 * The guard of one extension host: its files in a private folder (mode 0700) of the system's
 * temporary folder (else `$XDG_RUNTIME_DIR` or `~/.cache`, the first sandboxed commands cannot
 * write), and its entry in `env` (the host's `process.env` by default) once {@link update} first runs.
 */
export class GitGuard {
  private dir: string | undefined;
  /** The index of the guard's `GIT_CONFIG_*` entry in `env`, once installed. */
  private index: number | undefined;

  /**
   * @param env the environment git is started with (the host's `process.env`).
   * @param parents where the guard's folder may go, in order of preference: the first no sandboxed
   *   command can write (the system's temporary folder, `$XDG_RUNTIME_DIR`, `~/.cache`).
   */
  constructor(
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly parents: readonly (string | undefined)[] = [
      os.tmpdir(),
      process.env.XDG_RUNTIME_DIR,
      path.join(os.homedir(), '.cache'),
    ],
  ) {}

  /** The guard's folder (made on first use, mode 0700); undefined before. */
  get folder(): string | undefined {
    return this.dir;
  }

  /**
   * Makes git started from `env` refuse the git folders `patterns` match (from {@link everythingBut}
   * and {@link exactly}) and read each of `hooks`' hooks folder as given: rewrites the guard file
   * (atomically: a new file renamed over it) and installs the entry in `env` the first time.
   * @param writable folders sandboxed commands can write: the guard's folder must lie outside them.
   * @throws Error when the guard's folder is one sandboxed commands could write, or a write fails.
   */
  update(patterns: readonly string[], writable: readonly string[], hooks: readonly HooksFolder[] = []): void {
    const spellings = writable.flatMap((w) => [trimSlash(w), trimSlash(realOrGiven(w))]);
    const inWritable = (dir: string) => spellings.find((w) => w === '/' || dir === w || dir.startsWith(w + path.sep));
    if (this.dir === undefined) {
      const parent = this.parents.filter((p): p is string => !!p && path.isAbsolute(p)).find((p) => !inWritable(realOrGiven(p)));
      if (parent === undefined)
        throw new Error(
          `every folder the guard could use (${this.parents.filter(Boolean).join(', ')}) lies in one sandboxed commands can write`,
        );
      fs.mkdirSync(parent, { recursive: true, mode: 0o700 });
      const dir = fs.realpathSync(fs.mkdtempSync(path.join(parent, 'dsh-git-guard-')));
      fs.writeFileSync(
        path.join(dir, REFUSAL_FILE_NAME),
        '[a repository made while a sandboxed DSH Bridge session could write it: see docs/sandbox-git.md of DSH Bridge\n',
      );
      this.dir = dir;
    }
    const covering = inWritable(this.dir);
    if (covering) throw new Error(`the guard's folder ${this.dir} lies in ${covering}, which sandboxed commands can write`);
    const includes = hooks
      .map(({ gitDir, hooks: folder }, i) => {
        const hooksFile = path.join(this.dir!, `hooks-${i}.gitconfig`);
        writeAtomically(hooksFile, Buffer.from(`[core]\n\thooksPath = ${configQuote(folder)}\n`, 'utf8'));
        return [...new Set(exactly([gitDir, realOrGiven(gitDir)]))].map((pattern) => ({ pattern, file: hooksFile }));
      })
      .flat();
    const file = path.join(this.dir, 'guard.gitconfig');
    writeAtomically(file, Buffer.from(guardText(patterns, path.join(this.dir, REFUSAL_FILE_NAME), includes), 'latin1'));
    if (this.index === undefined) {
      const count = Number(this.env.GIT_CONFIG_COUNT ?? '0');
      const index = Number.isInteger(count) && count >= 0 ? count : 0;
      this.env[`GIT_CONFIG_KEY_${index}`] = 'include.path';
      this.env[`GIT_CONFIG_VALUE_${index}`] = file;
      this.env.GIT_CONFIG_COUNT = String(index + 1);
      this.index = index;
    }
  }

  /** A copy of `env` without the guard's entry: git that reads configuration as the person's own git does. */
  envWithout(env: NodeJS.ProcessEnv = this.env): NodeJS.ProcessEnv {
    const copy = { ...env };
    if (this.index === undefined) return copy;
    delete copy[`GIT_CONFIG_KEY_${this.index}`];
    delete copy[`GIT_CONFIG_VALUE_${this.index}`];
    if (this.index === 0) delete copy.GIT_CONFIG_COUNT;
    else copy.GIT_CONFIG_COUNT = String(this.index);
    return copy;
  }

  /**
   * Shell commands (sh) that remove the guard's entry from the environment, for a shell inside the
   * sandbox (git there works in the session's own repositories). Empty before the guard is installed.
   */
  unsetCommand(): string {
    if (this.index === undefined) return '';
    const i = this.index;
    return `unset GIT_CONFIG_KEY_${i} GIT_CONFIG_VALUE_${i}; ${i === 0 ? 'unset GIT_CONFIG_COUNT' : `export GIT_CONFIG_COUNT=${i}`}; `;
  }
}

/** Writes `file` whole or not at all: a new file renamed over it. */
function writeAtomically(file: string, data: Buffer): void {
  const next = `${file}.${process.pid}.new`;
  fs.writeFileSync(next, data);
  fs.renameSync(next, file);
}

/** `value` as a git configuration value: quoted, with `\\` and `"` escaped. */
function configQuote(value: string): string {
  if (value.includes('\n')) throw new Error(`a path with a newline cannot be named to git: ${JSON.stringify(value)}`);
  return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** git reads GIT_CONFIG_COUNT, where the guard's entry is, from 2.31 on. */
const GUARD_MIN_GIT: readonly [number, number] = [2, 31];

/**
 * Why the git on PATH cannot keep the guard (older than 2.31, it ignores GIT_CONFIG_COUNT: git
 * outside the sandbox then refuses nothing), or undefined when it can or its version cannot be read.
 */
export async function gitTooOldForGuard(): Promise<string | undefined> {
  const read = await run('git', ['--version'], 5000);
  const m = read.kind === 'ok' ? /(\d+)\.(\d+)/.exec(read.stdout) : null;
  if (!m) return undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  if (major > GUARD_MIN_GIT[0] || (major === GUARD_MIN_GIT[0] && minor >= GUARD_MIN_GIT[1])) return undefined;
  return `git ${major}.${minor} ignores GIT_CONFIG_COUNT (read from git ${GUARD_MIN_GIT.join('.')} on): git outside the sandbox does not refuse repositories sandboxed sessions make`;
}

/** Most folders {@link gitDirsBelow} reads in one call; past it the result is undefined. */
export const FULL_SCAN_MAX_FOLDERS = 200_000;

/**
 * Every folder in `roots` and below at any depth (not through symbolic links) that git may use as
 * a git folder, now or once more is written in it:
 * - a folder holding a `HEAD` (git takes a folder for a git folder by its `HEAD`, `objects` and
 *   `refs`); inside a git folder's `logs` and `refs`, where `HEAD` files are reflogs and symbolic
 *   refs, only one that also holds `objects`, `commondir` or `config`;
 * - a folder holding a `commondir`, and the folder it names (whose `config` and `hooks` git reads);
 * - each folder in a git folder's `worktrees` and `modules` (a linked worktree's or a submodule's
 *   git folder, even before it holds a `HEAD`);
 * - each folder named `.git` (one without `HEAD` is no repository yet, but `git init` there keeps
 *   the `config` and `hooks` inside), and the folder a `.git` symbolic link leads to;
 * - the folder each `.git` file names, read as git reads it (`gitdir: ` and the rest of the file,
 *   trailing line ends removed).
 * With `madeBefore` (ms since the epoch), only those whose creation time (`birthtimeMs`, statx's
 * `btime`) is not later: one without a creation time (0, a file system that keeps none) counts as
 * made before. Undefined when the search cannot be complete: more than
 * {@link FULL_SCAN_MAX_FOLDERS} folders, a folder it cannot read (git may still reach what is inside
 * by its path), or a name that is not UTF-8 (it could not be named to git).
 */
export async function gitDirsBelow(roots: readonly string[], madeBefore = Infinity): Promise<string[] | undefined> {
  const found = new Set<string>();
  // `inRefs`: inside a git folder's `logs` or `refs`; `inAdmin`: a git folder's `worktrees` or `modules`, whose folders count.
  const pending = roots.map((dir) => ({ dir, inRefs: false, inAdmin: false }));
  let read = 0;
  while (pending.length > 0) {
    const { dir, inRefs, inAdmin } = pending.pop()!;
    if (++read > FULL_SCAN_MAX_FOLDERS) return undefined;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return undefined;
    }
    if (entries.some((e) => e.name.includes('\uFFFD')) && !(await namesAreUtf8(dir))) return undefined;
    const has = (name: string) => entries.some((e) => e.name === name);
    const head = entries.some((e) => e.name === 'HEAD' && !e.isDirectory());
    const gitFolder = head && !inRefs;
    if (gitFolder || has('commondir') || path.basename(dir) === '.git' || (head && (has('objects') || has('config')))) found.add(dir);
    // The folder a `commondir` names: git reads its `config` and `hooks` for this one.
    const common = has('commondir') ? await commondirTarget(dir) : undefined;
    if (common !== undefined) found.add(common);
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (inAdmin) found.add(full);
        pending.push({
          dir: full,
          inRefs: inRefs || (gitFolder && (e.name === 'logs' || e.name === 'refs')),
          inAdmin: gitFolder && (e.name === 'worktrees' || e.name === 'modules'),
        });
      } else if (e.name === '.git' && e.isSymbolicLink()) {
        const target = realOrGiven(full);
        if (target !== full) found.add(target);
      } else if (e.name === '.git' && e.isFile()) {
        const named = await gitFileTarget(full);
        if (named !== undefined) found.add(named);
      }
    }
  }
  if (madeBefore === Infinity) return [...found];
  const before: string[] = [];
  for (const d of found) if ((await madeAt(d)) <= madeBefore) before.push(d);
  return before;
}

/** Whether every name in `dir` is UTF-8 (Node reads others with U+FFFD in place of what it cannot decode). */
async function namesAreUtf8(dir: string): Promise<boolean> {
  try {
    const raw = await fs.promises.readdir(dir, { encoding: 'buffer' });
    return raw.every((name) => Buffer.from(name.toString('utf8'), 'utf8').equals(name));
  } catch {
    return false;
  }
}

/** `dir`'s creation time in ms since the epoch; 0 when the file system keeps none or it is gone. */
async function madeAt(dir: string): Promise<number> {
  try {
    return (await fs.promises.stat(dir)).birthtimeMs;
  } catch {
    return 0;
  }
}
