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
 * - once none is open: the git folders found there that were not protected (made while sessions
 *   were open), each with everything below it. Repositories made later, by the person, work.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

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
 * Patterns matching each of `gitDirs` and everything below it (git's wildmatch, byte strings as
 * {@link everythingBut}). A newline, which a git configuration subsection cannot hold, is matched
 * by `?` (any one character): the pattern then also matches a few other paths, which are refused too.
 */
export function theseAndBelow(gitDirs: readonly string[]): string[] {
  return gitDirs.flatMap((d) => {
    const p = escapeGlob(bytes(trimSlash(d))).replace(/\n/g, '?');
    return [p, `${p}/**`];
  });
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
 * section per pattern, each including `refusal`.
 * @throws Error when a pattern holds a newline (a git config subsection cannot).
 */
export function guardText(patterns: readonly string[], refusal: string): string {
  const quote = (s: string) => s.replace(/[\\"]/g, (c) => `\\${c}`);
  const lines = ['# DSH Bridge: git run outside the agent sandbox refuses the repositories these name (see docs/sandbox-git.md).'];
  for (const p of patterns) {
    if (p.includes('\n')) throw new Error(`a path with a newline cannot be named to git: ${JSON.stringify(p)}`);
    lines.push(`[includeIf "gitdir:${quote(p)}"]`, `\tpath = ${quote(bytes(refusal))}`);
  }
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
   * and {@link theseAndBelow}): rewrites the guard file (atomically: a new file renamed over it) and
   * installs the entry in `env` the first time.
   * @param writable folders sandboxed commands can write: the guard's folder must lie outside them.
   * @throws Error when the guard's folder is one sandboxed commands could write, or a write fails.
   */
  update(patterns: readonly string[], writable: readonly string[]): void {
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
    const file = path.join(this.dir, 'guard.gitconfig');
    const next = `${file}.${process.pid}.new`;
    fs.writeFileSync(next, Buffer.from(guardText(patterns, path.join(this.dir, REFUSAL_FILE_NAME)), 'latin1'));
    fs.renameSync(next, file);
    if (this.index === undefined) {
      const count = Number(this.env.GIT_CONFIG_COUNT ?? '0');
      const index = Number.isInteger(count) && count >= 0 ? count : 0;
      this.env[`GIT_CONFIG_KEY_${index}`] = 'include.path';
      this.env[`GIT_CONFIG_VALUE_${index}`] = file;
      this.env.GIT_CONFIG_COUNT = String(index + 1);
      this.index = index;
    }
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

/** Most folders {@link gitDirsBelow} reads in one call; past it the result is undefined. */
export const FULL_SCAN_MAX_FOLDERS = 200_000;

/**
 * Every git folder in `roots` and below at any depth (not through symbolic links): each folder
 * holding a `HEAD` (git takes a folder for a git folder by its `HEAD`, `objects` and `refs`), each
 * folder named `.git` (one without `HEAD` is no repository yet, but `git init` there keeps the
 * `config` and `hooks` inside), and each folder a `.git` file names. With `madeBefore` (ms since the epoch), only those whose
 * creation time (`birthtimeMs`, statx's `btime`) is not later: one without a creation time (0, a
 * file system that keeps none) counts as made before. Undefined when more than
 * {@link FULL_SCAN_MAX_FOLDERS} folders would be read.
 */
export async function gitDirsBelow(roots: readonly string[], madeBefore = Infinity): Promise<string[] | undefined> {
  const found = new Set<string>();
  const pending = [...roots];
  let read = 0;
  while (pending.length > 0) {
    const dir = pending.pop()!;
    if (++read > FULL_SCAN_MAX_FOLDERS) return undefined;
    let entries: fs.Dirent[];
    try {
      entries = await fs.promises.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    // A git folder's `logs` and `refs` hold reflogs and refs (`logs/HEAD`, `refs/remotes/origin/HEAD`), no configuration.
    const gitFolder = entries.some((e) => e.name === 'HEAD' && !e.isDirectory());
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (gitFolder && (e.name === 'logs' || e.name === 'refs')) continue;
        pending.push(full);
        // No repository yet without HEAD, but `git init` there keeps what is inside (config, hooks).
        if (e.name === '.git') found.add(full);
      } else if (e.name === 'HEAD') found.add(dir);
      else if (e.name === '.git' && e.isFile()) {
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(await readSmall(full));
        if (m) found.add(path.resolve(dir, m[1]!));
      }
    }
  }
  if (madeBefore === Infinity) return [...found];
  const before: string[] = [];
  for (const d of found) if ((await madeAt(d)) <= madeBefore) before.push(d);
  return before;
}

/** `dir`'s creation time in ms since the epoch; 0 when the file system keeps none or it is gone. */
async function madeAt(dir: string): Promise<number> {
  try {
    return (await fs.promises.stat(dir)).birthtimeMs;
  } catch {
    return 0;
  }
}

async function readSmall(file: string): Promise<string> {
  try {
    const handle = await fs.promises.open(file, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch {
    return '';
  }
}
