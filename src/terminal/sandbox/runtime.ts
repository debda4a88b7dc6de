/**
 * Starting a session's shell inside the agent sandbox with `@anthropic-ai/sandbox-runtime`, the
 * library VS Code's agent sandbox and Claude Code use: it builds the bubblewrap command line
 * (Linux; `sandbox-exec` on macOS) from the file-system rules, runs the HTTP and SOCKS proxies that
 * enforce the network domain rules, and applies its seccomp filter. Nothing here is a sandbox of
 * its own: this module turns a {@link SandboxPolicy} into the runtime's configuration and the
 * runtime's command line into the one node-pty starts (controllingTerminal.ts).
 *
 * The runtime's manager is one per process. Its network part (the proxies and their domain rules) is
 * shared by every sandboxed session: a change of the domain lists applies at once to open sessions
 * too (the runtime swaps the rules in place). Sessions whose policy allows all network run without
 * the proxies; while any session that needs them is open, a new session gets the restricted
 * network of the running proxies, and its summary says so.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TerminalError } from '../errors';
import { keepControllingTerminal } from './controllingTerminal';
import { unshareIpc } from './ipcNamespace';
import { HooksFolder, gitControlPaths, lstat, removeStandIns, writeStandIns } from './gitControl';
import { FULL_SCAN_MAX_FOLDERS, GitGuard, everythingBut, exactly, gitDirsBelow, gitTooOldForGuard, realOrGiven } from './gitGuard';
import { SandboxPolicy, SandboxSummary, sandboxSummary } from './policy';
import { sandboxPrograms, writableFolderBefore } from './prerequisites';
import { errorMessage } from '../../common/errorMessage';
import type { Log } from '../../common/log';

type Runtime = typeof import('@anthropic-ai/sandbox-runtime');
type RuntimeConfig = import('@anthropic-ai/sandbox-runtime').SandboxRuntimeConfig;

/**
 * Programs the runtime (Linux) starts by name on the extension host's PATH, outside the sandbox, at
 * every wrap: ripgrep (`rg`, its scan for protected files) and `which` (to find the shell).
 */
const HOST_PATH_PROGRAMS = ['rg', 'which'] as const;

/** What node-pty starts for a sandboxed shell. */
export interface SandboxedShell {
  file: string;
  args: string[];
  /** What the session runs under, for tool results. */
  summary: SandboxSummary;
  /** Called once when the session has closed: the runtime may then remove its mount-point files. */
  release(): void;
}

/** Starts shells in the sandbox; one per extension host (the runtime's manager is a singleton). */
export class SandboxRuntime {
  private runtime: Promise<{ lib: Runtime; utils: RuntimeUtils }> | undefined;
  /** The network configuration the runtime's proxies run with, when they run. */
  private proxied: RuntimeConfig['network'] | undefined;
  private active = 0;
  /** Whether the git on PATH was checked for GIT_CONFIG_COUNT, which the git guard needs. */
  private gitVersionChecked = false;
  /** Serialises wraps: the runtime's manager keeps one configuration at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Empty folders the runtime made as mount points in a writable root (the absent `.claude` above
   * a protected `.claude/commands`), to remove once no sandboxed session is open (see
   * {@link missingParents}).
   */
  private readonly placeholderFolders = new Set<string>();
  /** Git stand-in files written so they could be protected (`commondir`, `config.worktree`), to remove once no sandboxed session is open (gitControl.ts). */
  private readonly writtenStandIns = new Set<string>();
  /** Keeps git run in this extension host out of repositories sandboxed sessions made (gitGuard.ts). */
  private readonly guard = new GitGuard();
  /** Folders sandboxed commands could write, in every spelling (as given, real path), since the first sandboxed session. */
  private readonly guardRoots = new Set<string>();
  /** Git folders protected when the open sandboxed sessions started (see {@link updateGuard}). */
  private allowedGitDirs: string[] = [];
  /** Git folders found that sandboxed sessions could have made or changed: refused until the person lets one in. */
  private readonly taintedGitDirs = new Set<string>();
  /** The allowed git folders' hooks folders, where `core.hooksPath` is relative (gitControl.ts HooksFolder). */
  private hooksFolders: HooksFolder[] = [];
  /** Whether the search after the last close could not finish: every git folder not allowed stays refused. */
  private searchGaveUp = false;

  constructor(private readonly log: Log) {}

  /**
   * The command that starts `shellArgv` (argv of the interactive shell) sandboxed under `policy`.
   * @param extraWritable folders the session itself needs to write (its private startup folder).
   * @param pathEnv the PATH the sandbox's programs are looked up on.
   * @throws TerminalError SANDBOX_UNAVAILABLE when the sandbox cannot start here (nothing started).
   */
  wrapShell(
    policy: SandboxPolicy,
    shellArgv: string[],
    extraWritable: string[],
    pathEnv: string | undefined,
    signal?: AbortSignal,
  ): Promise<SandboxedShell> {
    const run = this.queue.then(() => this.wrap(policy, shellArgv, extraWritable, pathEnv, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** wrapShell's work, one wrap at a time. */
  private async wrap(
    ...[policy, shellArgv, extraWritable, pathEnv, signal]: Parameters<SandboxRuntime['wrapShell']>
  ): Promise<SandboxedShell> {
    const { lib, utils } = await this.load();
    // What sandboxed commands can write: programs that run outside are never taken from there.
    const writable = [...writableFolders(policy, utils), ...extraWritable];
    const programs = await sandboxPrograms(process.platform, pathEnv, writable);
    if (programs.platform === 'linux') {
      // The runtime starts these by name on the extension host's PATH, outside the sandbox, at every wrap.
      for (const name of HOST_PATH_PROGRAMS) {
        const folder = writableFolderBefore(name, process.env.PATH, writable);
        if (folder === undefined) continue;
        throw new TerminalError(
          'SANDBOX_UNAVAILABLE',
          `the agent sandbox is on but cannot start safely: the sandbox runtime runs ${name} from the extension host's PATH outside the sandbox, and ${JSON.stringify(folder)} ` +
            `comes first on that PATH${path.isAbsolute(folder) ? ', where sandboxed commands can write' : ' (a relative folder)'}. Start VS Code with a PATH without it (or with ${name} installed in a folder before it). No session was started.`,
        );
      }
    }
    if (!this.gitVersionChecked) {
      this.gitVersionChecked = true;
      const tooOld = await gitTooOldForGuard();
      if (tooOld) this.log.warn(`sandbox: ${tooOld} (docs/sandbox-git.md)`);
    }
    signal?.throwIfAborted();
    const {
      paths: protectedPaths,
      standIns,
      gitDirs,
      hooks,
    } = await protectedWorkspacePaths(policy.writableRoots, utils, this.guard.envWithout(), this.log);
    signal?.throwIfAborted();
    this.updateGuard(writable, gitDirs, hooks);
    for (const file of writeStandIns(standIns)) this.writtenStandIns.add(file);
    try {
      return await this.wrapProtected(policy, shellArgv, extraWritable, signal, { lib, utils, programs, protectedPaths });
    } catch (error) {
      if (this.active === 0) {
        this.removeWrittenStandIns();
        // No session started: the guard goes back to what it was with none open.
        try {
          if (!this.searchGaveUp) this.narrowGuard();
        } catch (guardError) {
          this.log.warn(`sandbox: git guard after a sandboxed session failed to start: ${errorMessage(guardError)}`);
        }
      }
      throw error;
    }
  }

  /** The rest of {@link wrap}, once the protected paths are known and their stand-ins written. */
  private async wrapProtected(
    policy: SandboxPolicy,
    shellArgv: string[],
    extraWritable: string[],
    signal: AbortSignal | undefined,
    {
      lib,
      utils,
      programs,
      protectedPaths,
    }: { lib: Runtime; utils: RuntimeUtils; programs: Awaited<ReturnType<typeof sandboxPrograms>>; protectedPaths: string[] },
  ): Promise<SandboxedShell> {
    const manager = lib.SandboxManager;
    // The runtime gets its own copies: the policy is one object, shared by every use (policySource.ts).
    const filesystem = {
      denyRead: [...policy.denyRead],
      allowRead: [...policy.allowRead],
      allowWrite: [...policy.writableRoots, ...extraWritable],
      denyWrite: [...policy.denyWrite, ...protectedPaths],
    };
    const tools = programs.platform === 'linux' ? { bwrapPath: programs.bwrap, socatPath: programs.socat } : {};
    let network: SandboxSummary['network'] | undefined;
    if (policy.network.kind === 'domains') {
      const config: RuntimeConfig = {
        network: { allowedDomains: [...policy.network.allowedDomains], deniedDomains: [...policy.network.deniedDomains] },
        filesystem,
        ...tools,
      };
      if (this.proxied === undefined) {
        try {
          await manager.initialize(config);
        } catch (error) {
          throw new TerminalError(
            'SANDBOX_UNAVAILABLE',
            `the agent sandbox is on but its network proxies cannot start: ${errorMessage(error)}. No session was started.`,
          );
        }
      } else manager.updateConfig(config);
      this.proxied = config.network;
    } else if (this.proxied !== undefined) {
      if (this.active === 0) {
        await manager.reset();
        this.proxied = undefined;
      } else {
        const { allowedDomains, deniedDomains } = this.proxied;
        network = allowedDomains.length === 0 ? 'none' : { allowedDomains, deniedDomains };
        this.log.warn(
          'sandbox: this session gets the restricted network of the sandboxed sessions already open (the runtime has one set of proxies); close them for all network',
        );
      }
    }
    const command = shellArgv.map(shellQuote).join(' ');
    let wrapped: string;
    try {
      wrapped = await manager.wrapWithSandbox(
        `${this.guard.unsetCommand()}export TMPDIR=${shellQuote(policy.tempFolder)}; exec ${command}`,
        undefined,
        { filesystem, ...tools },
        signal,
      );
    } catch (error) {
      throw new TerminalError(
        'SANDBOX_UNAVAILABLE',
        `the agent sandbox is on but the sandbox runtime refused this configuration: ${errorMessage(error)}. No session was started.`,
      );
    }
    if (programs.platform === 'linux') {
      try {
        // System V IPC objects of processes outside are no business of the session (ipcNamespace.ts).
        wrapped = unshareIpc(keepControllingTerminal(wrapped, programs.bwrap), programs.bwrap);
      } catch (error) {
        manager.cleanupAfterCommand();
        throw new TerminalError(
          'SANDBOX_UNAVAILABLE',
          `the agent sandbox is on but cannot start: ${errorMessage(error)}. No session was started.`,
        );
      }
    }
    this.active++;
    for (const folder of missingParents(protectedPaths, policy.writableRoots)) this.placeholderFolders.add(folder);
    let released = false;
    const summary = sandboxSummary(policy);
    const defaults = utils
      .getDefaultWritePaths({ denyRead: [...policy.denyRead], allowRead: [...policy.allowRead] })
      .filter((p) => !p.startsWith('/dev/') && !p.startsWith('/private/'));
    summary.writableRoots = [...new Set([...summary.writableRoots, ...defaults])];
    if (network !== undefined) summary.network = network;
    return {
      file: '/bin/sh',
      args: ['-c', `exec ${wrapped}`],
      summary,
      release: () => {
        if (released) return;
        released = true;
        this.active--;
        manager.cleanupAfterCommand();
        if (this.active === 0) {
          // Later than the last sandboxed command (Date.now() is truncated to the ms).
          const closedAt = Date.now() + 1;
          this.removePlaceholderFolders();
          this.removeWrittenStandIns();
          this.queue = this.queue
            .then(() => this.guardAfterLastClose(closedAt))
            .catch((error) => this.log.warn(`sandbox: git guard after the last sandboxed session: ${errorMessage(error)}`));
        }
      },
    };
  }

  /**
   * Before a session starts: git run in this host refuses every git folder in the folders sandboxed
   * commands can write (`writable`), except those whose control files every open sandboxed session
   * protects. When no sandboxed session is open, those are the repositories found now (`gitDirs`)
   * that were never open to a sandboxed session unprotected; when one is, they stay what they were
   * and those found now are tainted (an open session could have made or changed them).
   * @throws TerminalError SANDBOX_UNAVAILABLE when the guard cannot be written (no session starts).
   */
  private updateGuard(writable: string[], gitDirs: string[], hooks: HooksFolder[]): void {
    for (const w of writable) {
      // Folders only: a writable file (the runtime's /dev/stdout, /dev/null) holds no repository.
      if (isFile(w)) continue;
      this.guardRoots.add(w);
      try {
        this.guardRoots.add(fs.realpathSync(w));
      } catch {
        // Absent: its spelling as given is the one git could meet.
      }
    }
    const found = [...new Set(gitDirs.flatMap((d) => [d, realOrGiven(d)]))];
    if (this.active === 0) {
      this.allowedGitDirs = found.filter((d) => !this.taintedGitDirs.has(d));
      this.hooksFolders = hooks.filter((h) => this.allowedGitDirs.includes(h.gitDir));
    } else for (const d of found) if (!this.allowedGitDirs.includes(d)) this.taintedGitDirs.add(d);
    const patterns = [...this.guardRoots].flatMap((root) => everythingBut(root, this.allowedGitDirs));
    this.log.info(
      `sandbox: git guard: a sandboxed session starts (${this.active} open); git outside refuses every repository in ${listed([...this.guardRoots])} but ${listed(this.allowedGitDirs)}; refused until let in: ${listed([...this.taintedGitDirs])}`,
    );
    try {
      this.guard.update(patterns, writable, this.hooksFolders);
    } catch (error) {
      throw new TerminalError(
        'SANDBOX_UNAVAILABLE',
        `the agent sandbox is on but git run outside it cannot be kept out of repositories sandboxed commands make: ${errorMessage(error)}. No session was started.`,
      );
    }
  }

  /**
   * Once the last sandboxed session has closed (at `closedAt`, ms since the epoch): every git folder
   * in the folders sandboxed commands could write, at any depth, that was not protected and was
   * made before then is tainted, and the guard names only the tainted ones (repositories made from
   * now on, by the person, work). A git folder's creation time (statx `btime`, which no system call
   * sets) tells one the person made while the search ran from one a session made; where the file
   * system keeps none it counts as made before. When the search is too large
   * (gitGuard.ts FULL_SCAN_MAX_FOLDERS) the guard stays as it is: every unprotected git folder refused.
   */
  private async guardAfterLastClose(closedAt: number): Promise<void> {
    if (this.active > 0 || this.guardRoots.size === 0) return;
    const found = await gitDirsBelow([...this.guardRoots], closedAt);
    if (found === undefined) {
      this.searchGaveUp = true;
      this.log.warn(
        `sandbox: the search for repositories sandboxed sessions made could not finish (more than ${FULL_SCAN_MAX_FOLDERS} folders, a folder it cannot read, or a name that is not UTF-8); git outside refuses every repository not protected when they started until the window reloads`,
      );
      return;
    }
    this.searchGaveUp = false;
    for (const d of found)
      for (const spelling of [d, realOrGiven(d)]) if (!this.allowedGitDirs.includes(spelling)) this.taintedGitDirs.add(spelling);
    if (this.active > 0) return;
    this.log.info(`sandbox: git guard: no sandboxed session open; git outside refuses only ${listed([...this.taintedGitDirs])}`);
    this.narrowGuard();
  }

  /** With no sandboxed session open: git outside refuses exactly the tainted git folders, and reads the allowed ones' hooks where they are. */
  private narrowGuard(): void {
    this.guard.update(exactly([...this.taintedGitDirs]), [], this.hooksFolders);
  }

  /**
   * Whether the search after the last close could not finish (see gitDirsBelow): git outside then
   * refuses every repository in the folders sandboxed commands could write that was not protected,
   * and none can be let in, until the window reloads.
   */
  get refusesAllUnprotected(): boolean {
    return this.searchGaveUp;
  }

  /**
   * The git folders git run in this host refuses because sandboxed sessions could have made or
   * changed them (absolute real paths, sorted).
   */
  repositoriesRefused(): string[] {
    return [...new Set([...this.taintedGitDirs].map(realOrGiven))].sort();
  }

  /**
   * Lets git run in this host use `gitDir` again (one of {@link repositoriesRefused}; the others,
   * also those inside it, stay refused), once the person has read what it would run. Only when no
   * sandboxed session is open (one could still be writing it), and not while the search after the
   * last close could not finish ({@link refusesAllUnprotected}). From the next sandboxed session on it is
   * protected like any repository found when a session opens (within three folders of a writable
   * root; a deeper one is refused again after that session closes).
   * @returns `allowed`, `sessions open` (nothing changed), or `not refused` (not in the list).
   */
  allowRepository(gitDir: string): Promise<'allowed' | 'sessions open' | 'not refused'> {
    const run = this.queue.then(() => {
      if (this.active > 0) return 'sessions open' as const;
      if (this.searchGaveUp || !this.repositoriesRefused().includes(gitDir)) return 'not refused' as const;
      for (const d of [...this.taintedGitDirs]) if (realOrGiven(d) === gitDir) this.taintedGitDirs.delete(d);
      this.log.info(
        `sandbox: git guard: the person lets git open ${JSON.stringify(gitDir)}; git outside refuses only ${listed([...this.taintedGitDirs])}`,
      );
      this.narrowGuard();
      return 'allowed' as const;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Removes the runtime's empty placeholder folders once no sandboxed session is open. The runtime
   * removes its mount points itself after the last sandboxed command, in the order it made them;
   * when sessions overlapped, a later wrap found the folder an earlier one made (`.claude`) and put
   * its own mount points inside it, so the folder is still full when its turn comes and stays
   * behind, empty. Only empty folders are removed (`rmdir`): anything with content is left.
   */
  private removePlaceholderFolders(): void {
    for (const folder of this.placeholderFolders) {
      try {
        if (fs.lstatSync(folder).isDirectory()) fs.rmdirSync(folder);
      } catch {
        // Gone, or not empty: not a placeholder any more.
      }
    }
    this.placeholderFolders.clear();
  }

  /** Removes the git stand-ins written for the sandboxed sessions (none is open any more). */
  private removeWrittenStandIns(): void {
    removeStandIns(this.writtenStandIns);
    this.writtenStandIns.clear();
  }

  /**
   * Stops the runtime's network proxies (HTTP, SOCKS and their socat bridges) if they run: once the
   * sessions have closed, when the extension shuts down. They would otherwise outlive it, and keep
   * a Node process that used them from exiting. A later wrap starts them again.
   */
  async dispose(): Promise<void> {
    await this.queue;
    if (this.proxied === undefined) return;
    this.proxied = undefined;
    const { lib } = await this.load();
    await lib.SandboxManager.reset();
  }

  private load(): Promise<{ lib: Runtime; utils: RuntimeUtils }> {
    this.runtime ??= (async () => ({
      lib: await import('@anthropic-ai/sandbox-runtime'),
      utils: await import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js'),
    }))();
    return this.runtime;
  }
}

/**
 * The absolute folders commands sandboxed under `policy` can write, existing or not: its writable
 * roots (workspace folders, storage, the sandbox temp folder, `allowWrite`) and the runtime's own
 * default write paths (`/tmp/claude`, `~/.npm/_logs`, … as the read rules leave them). A session's
 * private startup folder comes on top for that session only. Programs that run outside the
 * sandbox (its own, configured language servers) are never taken from these.
 */
export async function sandboxWritableFolders(policy: SandboxPolicy): Promise<string[]> {
  const utils = (await import('@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js')) as RuntimeUtils;
  return writableFolders(policy, utils);
}

function writableFolders(policy: SandboxPolicy, utils: RuntimeUtils): string[] {
  return [...policy.writableRoots, ...utils.getDefaultWritePaths({ denyRead: [...policy.denyRead], allowRead: [...policy.allowRead] })];
}

/** The runtime's lists of files that configure what runs outside the sandbox. */
interface RuntimeUtils {
  DANGEROUS_FILES: readonly string[];
  getDangerousDirectories(): string[];
  getDefaultWritePaths(readRules?: { denyRead: readonly string[]; allowRead?: readonly string[] }): string[];
}

/** How many folders below a writable root are searched for nested repositories and protected names (the runtime's `mandatoryDenySearchDepth`). */
const NESTED_SCAN_DEPTH = 3;
/** Most folders searched in one writable root; a larger tree is searched only this far, and the log says so. */
const NESTED_SCAN_MAX_FOLDERS = 20_000;

/**
 * Paths in each writable root that configure what runs outside the sandbox, kept unwritable: the
 * runtime's own list (shell startup files, `.gitconfig`, `.vscode`, …) and a repository's git
 * control files (gitControl.ts: hooks, config, commondir, config.worktree, linked worktrees'
 * pointers, the hooks folder `core.hooksPath` names; a `.git` folder that is no repository yet,
 * whole). A writable root that has no `.git` gets none: `<root>/.git/HEAD` is protected, so the
 * runtime holds an empty read-only folder at `<root>/.git` and no repository can be made there
 * (git walks past an empty `.git` folder as past none). The
 * runtime protects them in its host's working folder (and, with a ripgrep search, below it); a session's roots are the workspace folders, so they are
 * named here, for the root itself and for the folders up to {@link NESTED_SCAN_DEPTH} below it
 * (not `node_modules`, not through symbolic links): there the listed files and folders that
 * exist, and every repository git or VS Code's git extension may run in, outside any sandbox:
 * - a `.git` folder: its `hooks` and `config`, and those of every submodule's git folder inside
 *   it (`.git/modules/<name>/…`, nested too), which git reads when it runs in the submodule;
 * - a `.git` file (a submodule or a worktree): the file itself, which names the git folder git uses.
 * @param gitEnv the environment git reads a repository's configuration with (the host's, without the guard).
 * @returns `paths`: absolute paths, possibly absent ones (the runtime keeps them from being
 *   created); `standIns`: absent git files to write before the session starts (gitControl.ts);
 *   `gitDirs`: the git folders whose control files `paths` protect; `hooks`: those of them whose
 *   `core.hooksPath` is relative, with the hooks folder it names (gitControl.ts HooksFolder).
 */
async function protectedWorkspacePaths(
  roots: string[],
  utils: RuntimeUtils,
  gitEnv: NodeJS.ProcessEnv,
  log?: Log,
): Promise<{ paths: string[]; standIns: string[]; gitDirs: string[]; hooks: HooksFolder[] }> {
  const names = [...utils.DANGEROUS_FILES, ...utils.getDangerousDirectories()];
  const paths: string[] = [];
  const standIns: string[] = [];
  const gitDirs: string[] = [];
  const hooks: HooksFolder[] = [];
  const git = async (dir: string) => {
    const found = await gitControlPaths(dir, gitEnv);
    paths.push(...found.paths);
    gitDirs.push(...found.gitDirs);
    hooks.push(...found.hooks);
    // Written only where sandboxed commands could otherwise write one (elsewhere it stays absent and unwritable).
    standIns.push(...found.standIns.filter((file) => roots.some((r) => file.startsWith(r + path.sep))));
  };
  for (const root of roots) {
    for (const name of names) paths.push(path.join(root, name));
    const dotGit = await lstat(path.join(root, '.git'));
    if (dotGit?.isDirectory() || dotGit?.isFile()) await git(root);
    else if (await exists(root)) {
      paths.push(path.join(root, '.git', 'HEAD'));
      // The runtime holds an empty read-only folder at `.git` (HEAD's absent parent): nothing can be made in it.
      if (!dotGit) gitDirs.push(path.join(root, '.git'));
    }
    let searched = 0;
    let level = [root];
    for (let depth = 1; depth <= NESTED_SCAN_DEPTH && level.length > 0; depth++) {
      const next: string[] = [];
      for (const dir of level) {
        for (const entry of await folderEntries(dir)) {
          if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === '.git' || names.includes(entry.name)) continue;
          if (++searched > NESTED_SCAN_MAX_FOLDERS) break;
          const folder = path.join(dir, entry.name);
          next.push(folder);
          const inside = await folderEntries(folder);
          for (const name of names)
            if (inside.some((e) => e.name === name.split('/')[0]) && (await exists(path.join(folder, name))))
              paths.push(path.join(folder, name));
          if (inside.some((e) => e.name === '.git')) await git(folder);
        }
        if (searched > NESTED_SCAN_MAX_FOLDERS) break;
      }
      if (searched > NESTED_SCAN_MAX_FOLDERS) {
        log?.warn(
          `sandbox: ${root} has more than ${NESTED_SCAN_MAX_FOLDERS} folders within ${NESTED_SCAN_DEPTH} levels; nested repositories past the first ${NESTED_SCAN_MAX_FOLDERS} stay writable`,
        );
        break;
      }
      level = next;
    }
  }
  return { paths: [...new Set(paths)], standIns: [...new Set(standIns)], gitDirs: [...new Set(gitDirs)], hooks };
}

async function folderEntries(dir: string): Promise<fs.Dirent[]> {
  try {
    return await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

async function exists(p: string): Promise<boolean> {
  return (await lstat(p)) !== undefined;
}

/**
 * The folders the runtime will make as placeholders: for each protected path below a writable
 * root whose first absent component is a folder above it (`<root>/.claude` for an absent
 * `<root>/.claude/commands`), that component. Read before the sandbox starts.
 */
function missingParents(protectedPaths: string[], roots: string[]): string[] {
  const folders: string[] = [];
  for (const p of protectedPaths) {
    const root = roots.find((r) => p.startsWith(r + path.sep));
    if (!root) continue;
    let first: string | undefined;
    for (let dir = path.dirname(p); dir.length > root.length; dir = path.dirname(dir)) if (!fs.existsSync(dir)) first = dir;
    if (first) folders.push(first);
  }
  return folders;
}

/** `s` as one word for sh (single quotes). */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Whether `p` is something other than a folder (absent: false, a folder could be made there). */
function isFile(p: string): boolean {
  try {
    return !fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `paths` for a log line: quoted, comma-separated, or "none". */
function listed(paths: readonly string[]): string {
  return paths.length === 0 ? 'none' : paths.map((p) => JSON.stringify(p)).join(', ');
}
