/**
 * What differs between the shells a PTY backend drives: how the shell is started on its controlled
 * startup files. Everything else a session does (the markers, the probe, what a send types: the
 * kill-line key and one bracketed paste) is the same for every shell the project drives, because
 * each shell's controlled startup files make it so.
 */
import * as path from 'node:path';
import type { StartupRcOptions } from './startupRc';

/** The shells DSH Bridge drives, each by a backend of type `pty-<name>`. */
export const DRIVEN_SHELLS = ['bash', 'zsh'] as const;
export type ShellName = (typeof DRIVEN_SHELLS)[number];

/** How one shell is started with the controlled prompt installed after the person's startup files. */
export interface ShellDialect {
  /** The shell's name: `bash` or `zsh`; the backend's type is `pty-<name>`. */
  readonly name: ShellName;
  /**
   * Name of the file or folder, in the session's private folder, that holds the controlled startup
   * files. Its absolute path is on the shell's command line (`args`), which is how the session tells
   * its own shell from a program a startup file `exec`ed in its place.
   */
  readonly rcName: string;
  /**
   * Writes the controlled startup files at `rcPath` (mode 0600; a folder 0700) and returns how to
   * start the shell on them: its arguments (ending with the ones that name `rcPath`) and the
   * variables to add to the session's environment `env` (which is not changed).
   * @param nonce the session's marker nonce (readiness/markers.ts), 16 hex digits.
   * @throws the file system's error when a file cannot be written.
   */
  prepare(
    nonce: string,
    rcPath: string,
    options: StartupRcOptions,
    env: Readonly<Record<string, string>>,
  ): { args: string[]; env: Record<string, string> };
}

/**
 * The shell a path or name stands for: `bash` or `zsh` when its file name is that shell (a
 * version suffix allowed: `zsh-5.9`, `bash5`; a login dash `-zsh` too), undefined otherwise.
 */
export function drivenShell(executable: string): ShellName | undefined {
  const base = path
    .basename(executable.trim())
    .replace(/^-/, '')
    .replace(/\.exe$/i, '');
  return DRIVEN_SHELLS.find((name) => new RegExp(`^${name}(?:-?\\d[\\d.]*)?$`).test(base));
}

/**
 * The executable a backend of shell `name` starts: the configured shell (`dsh.terminal.shell`, a
 * path or a name) when it stands for `name` ({@link drivenShell}: `zsh`, `/bin/zsh`, `zsh-5.9`),
 * else `name` looked up on PATH.
 */
export function shellExecutable(name: ShellName, configured: string): string {
  return drivenShell(configured) === name ? configured : name;
}
