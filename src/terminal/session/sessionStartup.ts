/**
 * A session's startup: its private folder (the controlled rc, the startup progress file, a private
 * `TMUX_TMPDIR`), and what the open learns while the user's startup files run: which file the shell
 * was reading, and whether the shell's process stopped being our shell (a startup file `exec`ed
 * another program), with an error that says how to guard that file.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TerminalError } from '../errors';
import * as proc from '../../proc/procProbe';
import { SESSION_GUARD_VARIABLE } from './sessionEnv';
import { SHELL_TOO_OLD, START_FOLDER_MOVED } from './startupRc';
import { PATH_QUOTE_UNITS, quoteInput } from '../../common/quoteInput';
import { readRegularFileHead } from '../../common/regularFileHead';

/** Most of the startup progress file read (bytes): a line per startup file the shell read, then `done`. */
const PROGRESS_MAX_BYTES = 64 * 1024;

/**
 * A session's private folder (mode 0700): the controlled rc, the startup progress file, and the
 * private `TMUX_TMPDIR`. The rc and progress file go once the shell reached its first prompt; the
 * folder goes when the session closes, after any tmux server in it was stopped.
 */
export interface StartupDir {
  dir: string;
  /**
   * The controlled startup files (a file for bash, a folder for zsh; see ShellDialect.rcName): its
   * path is on the shell's command line.
   */
  rcFile: string;
  progressFile: string;
  tmuxTmpdir: string;
  /** Removes the rc and the progress file; never throws. */
  removeRc(): void;
  /**
   * Removes the whole folder, off this thread (the session's commands can fill it with any number
   * of files: removed in one synchronous call they would hold the extension host thread); never
   * rejects.
   */
  remove(): Promise<void>;
}

/**
 * Creates a new private folder under the system's temporary folder (`dsh-bridge-XXXXXX`, with a
 * `tmux` folder of mode 0700 in it). The rc is not written here.
 * @param rcName name of the controlled startup file or folder in it (ShellDialect.rcName).
 * @throws the file system's error when the folder cannot be created.
 */
export function createStartupDir(rcName = 'bashrc'): StartupDir {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsh-bridge-'));
  const rcFile = path.join(dir, rcName);
  const progressFile = path.join(dir, 'startup');
  const tmuxTmpdir = path.join(dir, 'tmux');
  fs.mkdirSync(tmuxTmpdir, { mode: 0o700 });
  return {
    dir,
    rcFile,
    progressFile,
    tmuxTmpdir,
    removeRc: () => {
      fs.rmSync(rcFile, { force: true, recursive: true });
      fs.rmSync(progressFile, { force: true });
    },
    remove: () => removeInWorker(dir),
  };
}

/** The program of the worker that removes a folder (its path is the worker's data). */
const REMOVE_SOURCE = `require('node:fs').rmSync(require('node:worker_threads').workerData, { recursive: true, force: true });`;

/**
 * Removes folder `dir` and everything in it in a worker thread of its own, ended once done: Node
 * 20's asynchronous fs.rm still walks the tree on the calling thread (40 000 files held it for
 * over a second), and a session's commands can put any number of files in its folder. The worker
 * stays referenced: a close awaits it, and its process must not exit before that close answers.
 * Resolves once the worker is done, whether or not it removed everything; never rejects.
 */
function removeInWorker(dir: string): Promise<void> {
  return new Promise<void>((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(REMOVE_SOURCE, { eval: true, workerData: dir });
    } catch {
      resolve();
      return;
    }
    // A failed removal (a file not ours to remove) ends the worker with an error; 'exit' follows.
    worker.on('error', () => undefined);
    worker.once('exit', () => resolve());
  });
}

/** Watches one shell's startup through its {@link StartupDir} and its process's command line. */
export class StartupWatch {
  /** The host's own command line: what the forked shell process shows before its exec. */
  private hostArgs: string | undefined;

  /**
   * @param startup the session's private folder.
   * @param shellPid the shell's pid.
   * @param useProc read command lines from /proc (else ps(1)).
   */
  constructor(
    private readonly startup: StartupDir,
    private readonly shellPid: number,
    private readonly useProc: boolean,
  ) {}

  /**
   * The command line the shell's process runs now, when it is no longer our shell: it does not
   * carry our rc file and is not the forked host before its exec. Undefined while it is ours or
   * cannot be read. Without /proc, ps(1) reads it off this thread.
   */
  async replacedBy(): Promise<string | undefined> {
    const args = await proc.processArgs(this.shellPid, this.useProc);
    if (args === undefined || args.includes(this.startup.rcFile)) return undefined;
    this.hostArgs ??= (await proc.processArgs(process.pid, this.useProc)) ?? '';
    return args === this.hostArgs ? undefined : args;
  }

  /** Where startup stood, for error messages: the file being read, or after / before all of them. */
  stage(): string {
    const file = this.file();
    if (file === undefined) return 'before the startup files ran';
    if (file === 'done') return 'after the startup files, at the first prompt (in a PROMPT_COMMAND, precmd hook or trap they set)';
    return `while the shell read ${file}`;
  }

  /** The SPAWN_FAILED error for a shell replaced by `replacedBy` during startup, naming the file and the guard. */
  hijackError(replacedBy: string): TerminalError {
    const file = this.file();
    // After the last file, the exec ran from a PROMPT_COMMAND (or trap) one of them set.
    const read = this.progress().filter((f) => f !== 'done' && fs.existsSync(f));
    const where =
      file && file !== 'done'
        ? file
        : read.length > 0
          ? `${read.join(' or ')} (the one that sets that PROMPT_COMMAND or trap)`
          : 'a startup file';
    return new TerminalError(
      'SPAWN_FAILED',
      `a startup file replaced the shell before its first prompt: ${this.stage()}, the session's process became \`${replacedBy.slice(0, 200)}\` (an \`exec\` in that file or one it sources). ` +
        `Agent sessions set ${SESSION_GUARD_VARIABLE}=1: in ${where} put \`[ -n "$${SESSION_GUARD_VARIABLE}" ] && return\` above the exec, or wrap the exec in \`if [ -z "$${SESSION_GUARD_VARIABLE}" ]; then … fi\`. ` +
        'The session and what it started are ended (a tmux it started had a server of its own, never yours).',
    );
  }

  /**
   * The RECEIVER_CHANGED error of a shell that ended because it started elsewhere than `folder`
   * (the real path it had to start in; see START_FOLDER_MOVED in markers.ts), naming where it
   * was; undefined when the shell did not end for that.
   */
  startFolderError(folder: string): TerminalError | undefined {
    const line = this.progress().find((l) => l.startsWith(`${START_FOLDER_MOVED} `));
    if (line === undefined) return undefined;
    const found = line.slice(START_FOLDER_MOVED.length + 1);
    return new TerminalError(
      'RECEIVER_CHANGED',
      `no session was opened: the shell was to start in ${quoteInput(folder, PATH_QUOTE_UNITS)}, but found itself in ${quoteInput(found, PATH_QUOTE_UNITS)} (a folder in the path was replaced by a symbolic link after the folder was checked, or the folder is not visible where the shell runs, as in a sandbox that hides it); it ended before any startup file ran. Call dsh_terminal_open again to confirm where the session starts`,
    );
  }

  /**
   * The SPAWN_FAILED error of a shell that ended because it is too old for the controlled prompt
   * (see SHELL_TOO_OLD in startupRc.ts), naming its version and what to do; undefined otherwise.
   */
  tooOldError(): TerminalError | undefined {
    const line = this.progress().find((l) => l.startsWith(`${SHELL_TOO_OLD} `));
    if (line === undefined) return undefined;
    const version = line.slice(SHELL_TOO_OLD.length + 1);
    return new TerminalError(
      'SPAWN_FAILED',
      `no session was opened: bash ${version} is older than 4.4, which agent sessions need (it has no PS0, so the start of a command could not be told; macOS's own /bin/bash is 3.2). Use zsh (dsh.terminal.shell "zsh", macOS's default shell), or install a newer bash (Homebrew: brew install bash) and set dsh.terminal.shell to its path`,
    );
  }

  /** The startup file the shell was reading, from the rc's progress file (see markers.ts). */
  private file(): string | undefined {
    return this.progress().pop();
  }

  /** Every line of the rc's progress file: the startup files in the order the shell read them, then `done`. */
  private progress(): string[] {
    const head = readRegularFileHead(this.startup.progressFile, PROGRESS_MAX_BYTES);
    return head === undefined
      ? []
      : head
          .toString('utf8')
          .split('\n')
          .filter((l) => l !== '');
  }
}
