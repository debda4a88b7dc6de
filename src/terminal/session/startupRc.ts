/**
 * What every shell backend's controlled rc shares: where it reports its startup progress, the
 * start-folder check, POSIX shell quoting, and closing inherited descriptors. Plain POSIX shell
 * text, understood by bash (3.2 and later) and zsh alike.
 */

/** Where the controlled rc reports its progress and how it treats tmux during startup; see bash/controlledPrompt.ts. */
export interface StartupRcOptions {
  /**
   * File the rc appends the path of each startup file to before sourcing it, and `done` after the
   * last: when the shell stops being our shell during startup, its last line names the file that
   * did it (or is `done`: then a PROMPT_COMMAND one of the listed files set did it at the first
   * prompt).
   */
  progressFile: string;
  /**
   * Private `TMUX_TMPDIR` the session starts with, so a tmux started by a startup file gets a
   * server of its own and never attaches to the user's. The rc restores `userTmuxTmpdir` (or
   * unsets the variable) at the end of the first prompt's PROMPT_COMMAND, after whatever the
   * startup files put there ran (a `PROMPT_COMMAND` that execs tmux is startup too), unless a
   * startup file changed it.
   */
  privateTmuxTmpdir: string;
  /** The `TMUX_TMPDIR` the session would have had; undefined when unset. */
  userTmuxTmpdir: string | undefined;
  /**
   * The real path the shell must start in (see {@link START_FOLDER_MOVED}); undefined: not checked.
   */
  startFolder?: string;
  /**
   * Let the session's commands reach the person's history file (`HISTFILE` as their startup files
   * set it), as VS Code does when `chat.tools.terminal.preventShellHistory` is false. Default: the
   * rc unsets `HISTFILE` after the startup files, so no command of the session is saved.
   */
  keepHistoryFile?: boolean;
}

/**
 * The progress file's line (then a space and the folder the shell found itself in) when the shell
 * started elsewhere than {@link StartupRcOptions.startFolder}: before anything else the rc asks
 * where it is (`cd -P .`, which sets `PWD` from getcwd(3)), and on a difference writes this line
 * and exits, before any startup file ran. A folder on the path replaced by a symbolic link between
 * the caller's check and the shell's start leads the shell elsewhere; this is what tells.
 */
export const START_FOLDER_MOVED = 'start-folder-moved';

/**
 * The progress file's line (then a space and the shell's version) when the shell is too old for
 * the controlled prompt: bash before 4.4 has no PS0, so no command's start could be told (macOS's
 * own /bin/bash is 3.2). The rc writes it and exits before any startup file ran.
 */
export const SHELL_TOO_OLD = 'shell-too-old';

/**
 * POSIX shell text that, when bash's major and minor version (`$1`, `$2`) are before 4.4, writes
 * {@link SHELL_TOO_OLD} and `$3` (the version) to `progressFile` (quoted) and exits 98. bash 3.2
 * understands it.
 */
export function bashVersionCheck(progressFile: string): string {
  return `__dsh_old() { if [ "$1" -lt 4 ] || { [ "$1" -eq 4 ] && [ "$2" -lt 4 ]; }; then builtin printf '%s %s\n' ${SHELL_TOO_OLD} "$3" >> ${progressFile}; builtin exit 98; fi; }`;
}

/**
 * Shell lines that close every inherited descriptor above stderr except those open on the
 * session's own terminal (the same file as stdin, `test -ef`): a PTY master of another session, a
 * pipe or socket of the host, whatever the process that started the shell left open. Bash keeps
 * its terminal on a high descriptor (255, or the highest free one below it), so the descriptor is
 * told by what it is, not by its number: an inherited descriptor 255 (another session's master
 * when the host had that many open) is closed like any other. Descriptors are listed from
 * `/proc/$$/fd` (Linux) or `/dev/fd` (macOS, BSD); the glob is expanded before the loop, so its
 * directory handle is closed by then. Plain POSIX `exec N>&-` through `eval`, which bash 3.2
 * understands.
 */
export const CLOSE_INHERITED_FDS = [
  'if [ -d "/proc/$$/fd" ]; then __dsh_fds="/proc/$$/fd/"; else __dsh_fds=/dev/fd/; fi',
  'for __dsh_fd in "$__dsh_fds"*; do',
  '  __dsh_fd=${__dsh_fd##*/}',
  '  case $__dsh_fd in 0|1|2|*[!0-9]*) continue ;; esac',
  '  [ "$__dsh_fds$__dsh_fd" -ef "${__dsh_fds}0" ] && continue',
  '  eval "exec $__dsh_fd>&-" 2>/dev/null',
  'done',
  'unset __dsh_fd __dsh_fds',
].join('\n');
